import { poolQuery } from '@cpc/database';
import type { DataSource } from 'typeorm';
import { LocationEntity } from '../entities/index.js';
import type { LocationRelations } from './location-view.js';

/**
 * What a location's view derives from other tables, as columns of a statement over `assets.locations location`: its
 * controllers (oldest first), its charge points — one per EVSE: the plugs of one controller that share an evse_id
 * charge one vehicle at a time — and its facility types by name. Subqueries of one statement, so a view is one round
 * trip and one snapshot.
 */
const RELATION_COLUMNS = `
  COALESCE((SELECT json_agg(controller.uuid ORDER BY controller.created_at, controller.uuid)
    FROM assets.controllers controller
    WHERE controller.tenant_uuid = location.tenant_uuid AND controller.location_uuid = location.uuid), '[]')
    AS "controllerUuids",
  (SELECT count(DISTINCT (plug.controller_uuid, plug.evse_id))::int
    FROM assets.controllers controller
    JOIN assets.plugs plug ON plug.tenant_uuid = controller.tenant_uuid AND plug.controller_uuid = controller.uuid
    WHERE controller.tenant_uuid = location.tenant_uuid AND controller.location_uuid = location.uuid)
    AS "chargePointCount",
  COALESCE((SELECT json_agg(json_build_object('uuid', type.uuid, 'name', type.name) ORDER BY type.name, type.uuid)
    FROM assets.location_facility_types link
    JOIN assets.facility_types type ON type.tenant_uuid = link.tenant_uuid AND type.uuid = link.facility_type_uuid
    WHERE link.tenant_uuid = location.tenant_uuid AND link.location_uuid = location.uuid), '[]')
    AS "facilityTypes"`;

type RelationsRow = LocationRelations & { uuid: string };

/** The location columns under the entity's property names; dates as TypeORM hands them over (YYYY-MM-DD). */
function locationColumns(dataSource: DataSource): string {
  return dataSource
    .getMetadata(LocationEntity)
    .columns.map((column) =>
      column.type === 'date'
        ? `to_char(location.${column.databaseName}, 'YYYY-MM-DD') AS "${column.propertyName}"`
        : `location.${column.databaseName} AS "${column.propertyName}"`,
    )
    .join(', ');
}

/** Reads a location with everything its view needs in one named statement (GET location is the hottest read). */
export class LocationViewQuery {
  private getText: string | undefined;

  constructor(private readonly dataSource: DataSource) {}

  async one(
    tenantUuid: string,
    uuid: string,
  ): Promise<{ location: LocationEntity; relations: LocationRelations } | undefined> {
    this.getText ??= `SELECT ${locationColumns(this.dataSource)}, ${RELATION_COLUMNS}
      FROM assets.locations location WHERE location.tenant_uuid = $1 AND location.uuid = $2`;
    const [row] = await poolQuery<LocationEntity & LocationRelations>(this.dataSource, {
      name: 'assets.location-view',
      text: this.getText,
      values: [tenantUuid, uuid],
    });
    if (!row) return undefined;
    const { controllerUuids, chargePointCount, facilityTypes, ...location } = row;
    return { location, relations: { controllerUuids, chargePointCount, facilityTypes } };
  }

  /** The relations of a page of locations, by uuid. */
  async relationsOf(tenantUuid: string, uuids: string[]): Promise<Map<string, LocationRelations>> {
    const rows = await poolQuery<RelationsRow>(this.dataSource, {
      name: 'assets.location-relations',
      text: `SELECT location.uuid, ${RELATION_COLUMNS}
        FROM assets.locations location WHERE location.tenant_uuid = $1 AND location.uuid = ANY($2::uuid[])`,
      values: [tenantUuid, uuids],
    });
    return new Map(
      rows.map(({ uuid, controllerUuids, chargePointCount, facilityTypes }) => [
        uuid,
        { controllerUuids, chargePointCount, facilityTypes },
      ]),
    );
  }
}
