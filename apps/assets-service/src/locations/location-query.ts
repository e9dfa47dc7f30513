import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { isUuid } from '@cpc/contracts';
import { poolQuery, runStatement } from '@cpc/database';
import type { DataSource } from 'typeorm';
import type { AssetsServiceTuning } from '../assets-service.config.js';
import { LocationEntity } from '../entities/index.js';
import type { LocationRelations } from './location-view.js';
import { LOCATION_RELATIONS, locationRelations } from './locations.repository.js';

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
  const relations = Object.entries(LOCATION_RELATIONS).map(
    ([name, expression]) => `'${name}', ${expression}`,
  );
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

  /**
   * Its text follows the entity's columns, read from the DataSource's metadata once initialised: the one statement of
   * assets-service without a snapshot.
   */
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
    const rows = await runStatement(this.dataSource, locationRelations, { tenantUuid, uuids });
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
