import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  AssetPage,
  CreateFacilityTypePayload,
  FacilityTypeFilter,
  FacilityTypeView,
  ListAssetsPayload,
} from '@cpc/contracts';
import { ValidationFailedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { FacilityTypeEntity } from '../entities/index.js';
import { likeContains, listPage, ASSET_SORT_COLUMNS } from '../shared/asset-listing.js';
import { isUniqueViolation } from '@cpc/database';
import { toIsoSeconds } from '../shared/time-format.js';

const SORT_COLUMNS = ASSET_SORT_COLUMNS;

function toView(type: FacilityTypeEntity): FacilityTypeView {
  return { uuid: type.uuid, name: type.name, created_at: toIsoSeconds(type.createdAt) };
}

function nameTaken(): ValidationFailedError {
  return ValidationFailedError.single(
    'name',
    'already_exists',
    'a facility type with this name exists already',
  );
}

/** The per-tenant catalogue of facility types (parking, restrooms, shop, …) that locations list. */
@Injectable()
export class FacilityTypesService {
  constructor(private readonly dataSource: DataSource) {}

  async create(tenantUuid: string, payload: CreateFacilityTypePayload): Promise<FacilityTypeView> {
    const type = this.dataSource.getRepository(FacilityTypeEntity).create({
      uuid: randomUUID(),
      tenantUuid,
      name: payload.name,
      createdAt: new Date(),
    });
    const exists = await this.dataSource
      .getRepository(FacilityTypeEntity)
      .createQueryBuilder('type')
      .where('type.tenantUuid = :tenantUuid AND lower(type.name) = lower(:name)', {
        tenantUuid,
        name: payload.name,
      })
      .getExists();
    if (exists) throw nameTaken();
    try {
      await this.dataSource.getRepository(FacilityTypeEntity).insert(type);
    } catch (error) {
      // A concurrent create of the same name.
      if (isUniqueViolation(error, 'facility_types_tenant_name_key')) throw nameTaken();
      throw error;
    }
    return toView(type);
  }

  list(
    tenantUuid: string,
    request: ListAssetsPayload<FacilityTypeFilter>,
  ): Promise<AssetPage<FacilityTypeView>> {
    const query = this.dataSource
      .getRepository(FacilityTypeEntity)
      .createQueryBuilder('type')
      .where('type.tenantUuid = :tenantUuid', { tenantUuid });
    if (request.filter.name !== undefined) {
      query.andWhere('type.name ILIKE :name', { name: likeContains(request.filter.name) });
    }
    return listPage(query, request, SORT_COLUMNS, (rows) => rows.map(toView));
  }
}
