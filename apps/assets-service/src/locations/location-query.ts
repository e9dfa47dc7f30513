import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { isUuid } from '@cpc/contracts';
import { poolQuery } from '@cpc/database';
import type { DataSource } from 'typeorm';
import type { AssetsServiceTuning } from '../assets-service.config.js';
import { LocationEntity } from '../entities/index.js';
import type { LocationRelations } from './location-view.js';

/**
 * What a location's view derives from other tables, as expressions over `assets.locations location`: its controllers
 * (oldest first), its charge points — one per EVSE: the plugs of one controller that share an evse_id charge one
 * vehicle at a time — and its facility types by name. Subqueries of one statement, so a view is one round trip and
 * one snapshot.
 */
const RELATIONS: Record<keyof LocationRelations, string> = {
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

const RELATION_COLUMNS = Object.entries(RELATIONS)
  .map(([name, expression]) => `${expression} AS "${name}"`)
  .join(',\n');

type RelationsRow = LocationRelations & { uuid: string };

/** A location as JSON: its timestamps as ISO 8601 text (with offset), until `one` makes them Dates again. */
type LocationJson = Omit<LocationEntity, 'createdAt' | 'updatedAt'> &
  LocationRelations & { createdAt: string; updatedAt: string };

/**
 * The location and its relations as one JSON object under the entity's property names, each value as TypeORM would
 * hand it over: dates as YYYY-MM-DD, decimals as the text stored (JSON numbers would drop their trailing zeros). One
 * column instead of forty: the driver's per-column work (describing, parsing each field of each row) was the largest
 * part of a GET location in assets-service's CPU profile. (json_build_object takes at most 100 arguments: 50 fields;
 * the location has 37 with its relations.)
 */
function locationJson(dataSource: DataSource): string {
  const columns = dataSource.getMetadata(LocationEntity).columns.map((column) => {
    const value = `location.${column.databaseName}`;
    if (column.type === 'date') return `'${column.propertyName}', to_char(${value}, 'YYYY-MM-DD')`;
    if (column.type === 'numeric') return `'${column.propertyName}', ${value}::text`;
    return `'${column.propertyName}', ${value}`;
  });
  const relations = Object.entries(RELATIONS).map(([name, expression]) => `'${name}', ${expression}`);
  return `json_build_object(${[...columns, ...relations].join(', ')})`;
}

interface LocationLookup {
  tenantUuid: string;
  uuid: string;
}

type LocationWithRelations = { location: LocationEntity; relations: LocationRelations } | undefined;

/**
 * Reads locations with everything their views need in one named statement. GET location is the hottest read: the
 * reads that arrive while `locationReadsInFlight` statements run share the next one (a statement starts after each of
 * its reads arrived, so every read sees what was written before it).
 */
export class LocationViewQuery {
  private getText: string | undefined;
  private readonly reads: GroupedCalls<LocationLookup, LocationWithRelations>;

  constructor(
    private readonly dataSource: DataSource,
    tuning: Pick<AssetsServiceTuning, 'locationReadsInFlight' | 'locationReadBatchSize'>,
  ) {
    this.reads = new GroupedCalls<LocationLookup, LocationWithRelations>((group) => this.read(group), {
      maxInFlight: tuning.locationReadsInFlight,
      maxGroup: tuning.locationReadBatchSize,
    });
  }

  one(tenantUuid: string, uuid: string): Promise<LocationWithRelations> {
    // A malformed uuid would fail the whole group's statement; no location has it.
    if (!isUuid(tenantUuid) || !isUuid(uuid)) return Promise.resolve(undefined);
    return this.reads.call({ tenantUuid, uuid });
  }

  private async read(group: GroupedCall<LocationLookup, LocationWithRelations>[]): Promise<void> {
    this.getText ??= `SELECT x.position, ${locationJson(this.dataSource)} AS location
      FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS x(tenant_uuid, uuid, position)
      JOIN assets.locations location ON location.tenant_uuid = x.tenant_uuid AND location.uuid = x.uuid`;
    const rows = await poolQuery<{ position: string; location: LocationJson }>(this.dataSource, {
      name: 'assets.location-views',
      text: this.getText,
      values: [group.map((call) => call.item.tenantUuid), group.map((call) => call.item.uuid)],
    });
    // One row per read (the same location read twice is two rows, each parsed on its own: each becomes an entity).
    const found = new Map(rows.map((row) => [Number(row.position) - 1, row.location]));
    group.forEach((call, index) => {
      const json = found.get(index);
      call.resolve(json && asEntity(json));
    });
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

/**
 * The parsed object becomes the entity in place (its relation keys stay, unread): copying its 37 fields into a new
 * object cost more than parsing it.
 */
function asEntity(json: LocationJson): { location: LocationEntity; relations: LocationRelations } {
  const relations = {
    controllerUuids: json.controllerUuids,
    chargePointCount: json.chargePointCount,
    facilityTypes: json.facilityTypes,
  };
  const timestamps = json as unknown as Pick<LocationEntity, 'createdAt' | 'updatedAt'>;
  timestamps.createdAt = new Date(json.createdAt);
  timestamps.updatedAt = new Date(json.updatedAt);
  return { location: json as unknown as LocationEntity, relations };
}
