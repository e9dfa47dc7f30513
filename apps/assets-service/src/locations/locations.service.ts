import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type AssetPage,
  type CreateLocationPayload,
  type FacilityTypeRef,
  HAS_DEPENDENTS_ERROR_KEY,
  LOCATION_TEXT_FIELDS,
  type ListAssetsPayload,
  type LocationFilter,
  type LocationView,
  type LocationWritableFields,
  type UpdateLocationPayload,
} from '@cpc/contracts';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { ControllerEntity, LocationEntity, LocationFacilityTypeEntity } from '../entities/index.js';
import { likeContains, listPage } from '../shared/asset-listing.js';
import { isForeignKeyViolation } from '../shared/database-errors.js';
import { toDateOnly } from '../shared/time-format.js';
import { type LocationRelations, toLocationView } from './location-view.js';

const SORT_COLUMNS = { created_at: 'location.createdAt', name: 'location.name' } as const;

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
  constructor(private readonly dataSource: DataSource) {}

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
      await manager.insert(LocationEntity, location);
      if (payload.facility_type_uuids)
        await this.replaceFacilityTypes(manager, tenantUuid, uuid, payload.facility_type_uuids);
    });
    return this.get(tenantUuid, uuid);
  }

  async get(tenantUuid: string, uuid: string): Promise<LocationView> {
    const location = await this.dataSource.getRepository(LocationEntity).findOneBy({ tenantUuid, uuid });
    if (!location) throw new NotFoundError('location');
    const [view] = await this.toViews(tenantUuid, [location]);
    return view;
  }

  list(tenantUuid: string, request: ListAssetsPayload<LocationFilter>): Promise<AssetPage<LocationView>> {
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
    return listPage(query, request, SORT_COLUMNS, (rows) => this.toViews(tenantUuid, rows));
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
      const found: { uuid: string }[] = await manager.query(
        'SELECT uuid FROM assets.facility_types WHERE tenant_uuid = $1 AND uuid = ANY($2::uuid[])',
        [tenantUuid, wanted],
      );
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

  /** Loads what the views derive from other tables, for a whole page at once. */
  private async toViews(tenantUuid: string, locations: LocationEntity[]): Promise<LocationView[]> {
    if (locations.length === 0) return [];
    const uuids = locations.map((location) => location.uuid);
    const [controllers, chargePoints, facilityTypes] = await Promise.all([
      this.dataSource.query<{ location_uuid: string; uuid: string }[]>(
        `SELECT location_uuid, uuid FROM assets.controllers
          WHERE tenant_uuid = $1 AND location_uuid = ANY($2::uuid[]) ORDER BY created_at, uuid`,
        [tenantUuid, uuids],
      ),
      // A charge point is one EVSE: the plugs of one controller that share an evse_id charge one vehicle at a time.
      this.dataSource.query<{ location_uuid: string; count: number }[]>(
        `SELECT controller.location_uuid, count(DISTINCT (plug.controller_uuid, plug.evse_id))::int AS count
          FROM assets.controllers controller
          JOIN assets.plugs plug ON plug.tenant_uuid = controller.tenant_uuid AND plug.controller_uuid = controller.uuid
          WHERE controller.tenant_uuid = $1 AND controller.location_uuid = ANY($2::uuid[])
          GROUP BY controller.location_uuid`,
        [tenantUuid, uuids],
      ),
      this.dataSource.query<{ location_uuid: string; uuid: string; name: string }[]>(
        `SELECT link.location_uuid, type.uuid, type.name
          FROM assets.location_facility_types link
          JOIN assets.facility_types type ON type.tenant_uuid = link.tenant_uuid AND type.uuid = link.facility_type_uuid
          WHERE link.tenant_uuid = $1 AND link.location_uuid = ANY($2::uuid[]) ORDER BY type.name, type.uuid`,
        [tenantUuid, uuids],
      ),
    ]);
    const relations = new Map<string, LocationRelations>(
      uuids.map((uuid) => [
        uuid,
        { controllerUuids: [], chargePointCount: 0, facilityTypes: [] as FacilityTypeRef[] },
      ]),
    );
    for (const row of controllers) relations.get(row.location_uuid)?.controllerUuids.push(row.uuid);
    for (const row of chargePoints) relations.get(row.location_uuid)!.chargePointCount = row.count;
    for (const row of facilityTypes)
      relations.get(row.location_uuid)?.facilityTypes.push({ uuid: row.uuid, name: row.name });
    return locations.map((location) => toLocationView(location, relations.get(location.uuid)!));
  }
}
