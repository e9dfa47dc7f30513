import { sqlStatement } from '@cpc/database';
import type { LocationRelations } from './location-view.js';

/** The statements of locations beyond their entity. */

/** Which of the given facility types the tenant's catalogue has. */
export const knownFacilityTypes = sqlStatement<{ tenantUuid: string; uuids: string[] }, { uuid: string }>({
  name: 'locations.known-facility-types',
  parameters: ['tenantUuid', 'uuids'],
  sql: 'SELECT uuid FROM assets.facility_types WHERE tenant_uuid = :tenantUuid AND uuid = ANY(:uuids::uuid[])',
});

/**
 * What a location's view derives from other tables, as expressions over `assets.locations location`: its controllers
 * (oldest first), its charge points — one per EVSE: the plugs of one controller that share an evse_id charge one
 * vehicle at a time — and its facility types by name. Subqueries of one statement, so a view is one round trip and
 * one snapshot.
 */
export const LOCATION_RELATIONS: Record<keyof LocationRelations, string> = {
  controllerUuids: `COALESCE((SELECT json_agg(controller.uuid ORDER BY controller.created_at, controller.uuid)
    FROM assets.controllers controller
    WHERE controller.tenant_uuid = location.tenant_uuid AND controller.location_uuid = location.uuid), '[]')`,
  chargePointCount: `(SELECT count(DISTINCT (plug.controller_uuid, plug.evse_id))::int
    FROM assets.controllers controller
    JOIN assets.plugs plug ON plug.tenant_uuid = controller.tenant_uuid AND plug.controller_uuid = controller.uuid
    WHERE controller.tenant_uuid = location.tenant_uuid AND controller.location_uuid = location.uuid)`,
  facilityTypes: `COALESCE((SELECT json_agg(json_build_object('uuid', type.uuid, 'name', type.name) ORDER BY type.name, type.uuid)
    FROM assets.location_facility_types link
    JOIN assets.facility_types type ON type.tenant_uuid = link.tenant_uuid AND type.uuid = link.facility_type_uuid
    WHERE link.tenant_uuid = location.tenant_uuid AND link.location_uuid = location.uuid), '[]')`,
};

const RELATION_COLUMNS = Object.entries(LOCATION_RELATIONS)
  .map(([name, expression]) => `${expression} AS "${name}"`)
  .join(',\n');

/** The relations of a page of locations (LOCATION_RELATIONS), by uuid. */
export const locationRelations = sqlStatement<
  { tenantUuid: string; uuids: string[] },
  LocationRelations & { uuid: string }
>({
  name: 'locations.relations',
  prepared: true,
  parameters: ['tenantUuid', 'uuids'],
  sql: `SELECT location.uuid, ${RELATION_COLUMNS}
          FROM assets.locations location WHERE location.tenant_uuid = :tenantUuid AND location.uuid = ANY(:uuids::uuid[])`,
});

/** For the SQL snapshots. */
export const LOCATIONS_STATEMENTS = [knownFacilityTypes, locationRelations];
