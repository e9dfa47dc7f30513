import { sqlStatement } from '@cpc/database';
import type { ControllerEntity } from '../entities/index.js';

/** The statements of controllers' hottest reads, beside their entity. */

/** What a controller's view is made of. */
export type ViewedController = Pick<
  ControllerEntity,
  | 'uuid'
  | 'locationUuid'
  | 'name'
  | 'ocppIdentity'
  | 'securityProfile'
  | 'ocppPasswordHash'
  | 'connectionStatus'
  | 'ocppProtocol'
  | 'lastSeenAt'
  | 'vendor'
  | 'model'
  | 'serialNumber'
  | 'firmwareVersion'
  | 'firmwareStatus'
  | 'firmwareStatusAt'
  | 'diagnosticsStatus'
  | 'diagnosticsStatusAt'
  | 'createdAt'
  | 'updatedAt'
>;

/**
 * One controller's view columns under the entity's property names, a named statement on the pool: TypeORM's findOne
 * (query building and hydration) was most of the cost of a lookup.
 */
export const controllerView = sqlStatement<{ tenantUuid: string; uuid: string }, ViewedController>({
  name: 'controllers.view',
  prepared: true,
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT uuid, location_uuid AS "locationUuid", name, ocpp_identity AS "ocppIdentity",
               security_profile AS "securityProfile", ocpp_password_hash AS "ocppPasswordHash",
               connection_status AS "connectionStatus", ocpp_protocol AS "ocppProtocol",
               last_seen_at AS "lastSeenAt", vendor, model, serial_number AS "serialNumber",
               firmware_version AS "firmwareVersion", firmware_status AS "firmwareStatus",
               firmware_status_at AS "firmwareStatusAt", diagnostics_status AS "diagnosticsStatus",
               diagnostics_status_at AS "diagnosticsStatusAt", created_at AS "createdAt", updated_at AS "updatedAt"
          FROM assets.controllers WHERE tenant_uuid = :tenantUuid AND uuid = :uuid`,
});

/**
 * The positions (from 1) of the (tenant, controller) pairs that exist, one statement for all of them: every command
 * created for a controller is checked here, many at a time.
 */
export const existingControllers = sqlStatement<
  { tenantUuids: string[]; uuids: string[] },
  { position: string }
>({
  name: 'controllers.exist',
  prepared: true,
  parameters: ['tenantUuids', 'uuids'],
  sql: `SELECT x.position
          FROM unnest(:tenantUuids::uuid[], :uuids::uuid[]) WITH ORDINALITY AS x(tenant_uuid, uuid, position)
         WHERE EXISTS (SELECT FROM assets.controllers c WHERE c.tenant_uuid = x.tenant_uuid AND c.uuid = x.uuid)`,
});

/** For the SQL snapshots. */
export const CONTROLLERS_STATEMENTS = [controllerView, existingControllers];
