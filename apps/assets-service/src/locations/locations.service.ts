import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AssetsSubjects,
  type CursorAssetPage,
  type CreateLocationPayload,
  HAS_DEPENDENTS_ERROR_KEY,
  LOCATION_TEXT_FIELDS,
  type CursorListAssetsPayload,
  type LocationFilter,
  type LocationView,
  type LocationWritableFields,
  type UpdateLocationPayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { ControllerEntity, LocationEntity, LocationFacilityTypeEntity } from '../entities/index.js';
import { insertAsset } from '../shared/asset-inserts.repository.js';
import { likeContains, listPage, ASSET_SORT_COLUMNS } from '../shared/asset-listing.js';
import { isForeignKeyViolation } from '@cpc/database';
import { toDateOnly } from '../shared/time-format.js';
import { LocationViewQuery } from './location-query.js';
import { type LocationRelations, toLocationView } from './location-view.js';
import { knownFacilityTypes } from './locations.repository.js';

const SORT_COLUMNS = ASSET_SORT_COLUMNS;

/** Columns written as given (facility types and dates are handled on their own). */
const PLAIN_FIELDS = [
  ...LOCATION_TEXT_FIELDS,
  'name',
  'status',
  'country_code',
  'latitude',
  'longitude',
  'height',
  'support_hotline',
  'publish',
  'website',
  'contract_id',
  'modification_date',
] as const;

function hasDependents(): ValidationFailedError {
  return ValidationFailedError.single(
    'uuid',
    HAS_DEPENDENTS_ERROR_KEY,
    'the location still has controllers; delete or move them first',
  );
}

@Injectable()
export class LocationsService {
  private readonly views: LocationViewQuery;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) tuning: AssetsServiceTuning,
  ) {
    this.views = new LocationViewQuery(dataSource, tuning);
  }

  async create(tenantUuid: string, payload: CreateLocationPayload): Promise<LocationView> {
    const now = new Date();
    const uuid = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      const location = manager.create(LocationEntity, {
        uuid,
        tenantUuid,
        status: 'active',
        publish: false,
        modification_date: toDateOnly(now),
        // Both replaced by the database's stamp of the insert (insertAsset).
        createdAt: now,
        updatedAt: now,
      });
      for (const field of LOCATION_TEXT_FIELDS) location[field] = null;
      Object.assign(location, {
        country_code: null,
        latitude: null,
        longitude: null,
        height: null,
        support_hotline: null,
        website: null,
        contract_id: null,
      });
      this.applyFields(location, payload);
      await insertAsset(manager, LocationEntity, location);
      if (payload.facility_type_uuids)
        await this.replaceFacilityTypes(manager, tenantUuid, uuid, payload.facility_type_uuids);
    });
    return this.get(tenantUuid, uuid);
  }

  async get(tenantUuid: string, uuid: string): Promise<LocationView> {
    const found = await this.views.one(tenantUuid, uuid);
    if (!found) throw new NotFoundError('location');
    return toLocationView(found.location, found.relations);
  }

  list(
    tenantUuid: string,
    request: CursorListAssetsPayload<LocationFilter>,
  ): Promise<CursorAssetPage<LocationView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(LocationEntity)
      .createQueryBuilder('location')
      .where('location.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.name !== undefined)
      query.andWhere('location.name ILIKE :name', { name: likeContains(filter.name) });
    if (filter.status !== undefined) query.andWhere('location.status = :status', { status: filter.status });
    if (filter.city !== undefined) query.andWhere('location.city = :city', { city: filter.city });
    if (filter.postal_code !== undefined) {
      query.andWhere('location.postal_code = :postalCode', { postalCode: filter.postal_code });
    }
    if (filter.country_code !== undefined) {
      query.andWhere('location.country_code = :countryCode', { countryCode: filter.country_code });
    }
    if (filter.identifier !== undefined) {
      query.andWhere('location.identifier = :identifier', { identifier: filter.identifier });
    }
    if (filter.publish !== undefined)
      query.andWhere('location.publish = :publish', { publish: filter.publish });
    if (filter.facility_type_uuid !== undefined) {
      query.andWhere(
        `EXISTS (SELECT 1 FROM assets.location_facility_types link
          WHERE link.tenant_uuid = location.tenant_uuid AND link.location_uuid = location.uuid
            AND link.facility_type_uuid = :facilityTypeUuid)`,
        { facilityTypeUuid: filter.facility_type_uuid },
      );
    }
    return listPage(query, request, SORT_COLUMNS, (rows) => this.toViews(tenantUuid, rows), {
      list: AssetsSubjects.listLocations,
      tenantUuid,
      table: 'assets.locations',
    });
  }

  async update(tenantUuid: string, uuid: string, changes: UpdateLocationPayload): Promise<LocationView> {
    await this.dataSource.transaction(async (manager) => {
      const location = await manager.findOne(LocationEntity, {
        where: { tenantUuid, uuid },
        lock: { mode: 'pessimistic_write' },
      });
      if (!location) throw new NotFoundError('location');
      this.applyFields(location, changes);
      location.updatedAt = new Date();
      await manager.save(LocationEntity, location);
      if (changes.facility_type_uuids)
        await this.replaceFacilityTypes(manager, tenantUuid, uuid, changes.facility_type_uuids);
    });
    return this.get(tenantUuid, uuid);
  }

  /** Refused while controllers are at the location; its own sensors and facility-type links go with it. */
  async delete(tenantUuid: string, uuid: string): Promise<void> {
    try {
      await this.dataSource.transaction(async (manager) => {
        const location = await manager.findOne(LocationEntity, {
          where: { tenantUuid, uuid },
          lock: { mode: 'pessimistic_write' },
        });
        if (!location) throw new NotFoundError('location');
        if (await manager.existsBy(ControllerEntity, { tenantUuid, locationUuid: uuid }))
          throw hasDependents();
        await manager.delete(LocationEntity, { tenantUuid, uuid });
      });
    } catch (error) {
      // A controller created at the location between the check and the delete: the foreign key refuses.
      if (isForeignKeyViolation(error)) throw hasDependents();
      throw error;
    }
  }

  private applyFields(location: LocationEntity, fields: LocationWritableFields): void {
    const target = location as unknown as Record<string, unknown>;
    for (const field of PLAIN_FIELDS) {
      if (fields[field] !== undefined) target[field] = fields[field];
    }
  }

  private async replaceFacilityTypes(
    manager: EntityManager,
    tenantUuid: string,
    locationUuid: string,
    facilityTypeUuids: string[],
  ): Promise<void> {
    const wanted = [...new Set(facilityTypeUuids.map((uuid) => uuid.toLowerCase()))];
    if (wanted.length > 0) {
      const found = await runStatement(manager, knownFacilityTypes, { tenantUuid, uuids: wanted });
      const known = new Set(found.map((row) => row.uuid));
      const unknown = wanted.filter((uuid) => !known.has(uuid));
      if (unknown.length > 0) {
        throw ValidationFailedError.single(
          'facility_types',
          'not_found',
          `unknown facility type ${unknown.join(', ')}; create it in the facility-type catalogue first`,
        );
      }
    }
    await manager.delete(LocationFacilityTypeEntity, { tenantUuid, locationUuid });
    if (wanted.length > 0) {
      await manager.insert(
        LocationFacilityTypeEntity,
        wanted.map((facilityTypeUuid) => ({ tenantUuid, locationUuid, facilityTypeUuid })),
      );
    }
  }

  /** The views of a page of locations, their relations read in one statement. */
  private async toViews(tenantUuid: string, locations: LocationEntity[]): Promise<LocationView[]> {
    if (locations.length === 0) return [];
    const relations = await this.views.relationsOf(
      tenantUuid,
      locations.map((location) => location.uuid),
    );
    // A location deleted since the page was read has no row here; it is shown as it was read, without relations.
    const none: LocationRelations = { controllerUuids: [], chargePointCount: 0, facilityTypes: [] };
    return locations.map((location) => toLocationView(location, relations.get(location.uuid) ?? none));
  }
}
