import { sqlStatement } from '@cpc/database';

/** The statements of plugs beyond their entity. */

/** The locations of the tenant's controllers among `controllerUuids`: a plug's location is its controller's. */
export const controllerLocations = sqlStatement<
  { tenantUuid: string; controllerUuids: string[] },
  { uuid: string; location_uuid: string }
>({
  name: 'plugs.controller-locations',
  parameters: ['tenantUuid', 'controllerUuids'],
  sql: `SELECT uuid, location_uuid FROM assets.controllers
         WHERE tenant_uuid = :tenantUuid AND uuid = ANY(:controllerUuids::uuid[])`,
});

/** For the SQL snapshots. */
export const PLUGS_STATEMENTS = [controllerLocations];
