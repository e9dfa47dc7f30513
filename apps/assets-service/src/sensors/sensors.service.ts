import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AssetsSubjects,
  CursorAssetPage,
  CreateSensorPayload,
  CursorListAssetsPayload,
  SensorFilter,
  SensorView,
  UpdateSensorPayload,
} from '@cpc/contracts';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { ControllerEntity, LocationEntity, SensorEntity } from '../entities/index.js';
import { insertAsset } from '../shared/asset-inserts.repository.js';
import { likeContains, listPage, ASSET_SORT_COLUMNS } from '../shared/asset-listing.js';
import { toIsoSeconds } from '../shared/time-format.js';

const SORT_COLUMNS = ASSET_SORT_COLUMNS;

function toSensorView(sensor: SensorEntity): SensorView {
  return {
    uuid: sensor.uuid,
    location_uuid: sensor.locationUuid,
    controller_uuid: sensor.controllerUuid,
    kind: sensor.kind,
    name: sensor.name,
    serial_number: sensor.serialNumber,
    created_at: toIsoSeconds(sensor.createdAt),
    updated_at: toIsoSeconds(sensor.updatedAt),
  };
}

@Injectable()
export class SensorsService {
  constructor(private readonly dataSource: DataSource) {}

  async create(tenantUuid: string, payload: CreateSensorPayload): Promise<SensorView> {
    const locationUuid = payload.location_uuid?.toLowerCase() ?? null;
    const controllerUuid = payload.controller_uuid?.toLowerCase() ?? null;
    if ((locationUuid === null) === (controllerUuid === null)) {
      throw ValidationFailedError.single(
        locationUuid === null ? 'location_uuid' : 'controller_uuid',
        'exactly_one_parent',
        'a sensor belongs to exactly one of a location (location_uuid) or a controller (controller_uuid)',
      );
    }
    const now = new Date();
    const sensor = this.dataSource.getRepository(SensorEntity).create({
      uuid: randomUUID(),
      tenantUuid,
      locationUuid,
      controllerUuid,
      kind: payload.kind,
      name: payload.name,
      serialNumber: payload.serial_number ?? null,
      // Both replaced by the database's stamp of the insert (insertAsset).
      createdAt: now,
      updatedAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      const parentExists = locationUuid
        ? await manager.findOne(LocationEntity, {
            where: { tenantUuid, uuid: locationUuid },
            lock: { mode: 'pessimistic_read' },
          })
        : await manager.findOne(ControllerEntity, {
            where: { tenantUuid, uuid: controllerUuid! },
            lock: { mode: 'pessimistic_read' },
          });
      if (!parentExists) {
        throw ValidationFailedError.single(
          locationUuid ? 'location_uuid' : 'controller_uuid',
          'not_found',
          locationUuid ? 'no such location' : 'no such controller',
        );
      }
      await insertAsset(manager, SensorEntity, sensor);
    });
    return toSensorView(sensor);
  }

  async get(tenantUuid: string, uuid: string): Promise<SensorView> {
    const sensor = await this.dataSource.getRepository(SensorEntity).findOneBy({ tenantUuid, uuid });
    if (!sensor) throw new NotFoundError('sensor');
    return toSensorView(sensor);
  }

  list(
    tenantUuid: string,
    request: CursorListAssetsPayload<SensorFilter>,
  ): Promise<CursorAssetPage<SensorView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(SensorEntity)
      .createQueryBuilder('sensor')
      .where('sensor.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.location_uuid !== undefined) {
      query.andWhere('sensor.locationUuid = :locationUuid', { locationUuid: filter.location_uuid });
    }
    if (filter.controller_uuid !== undefined) {
      query.andWhere('sensor.controllerUuid = :controllerUuid', { controllerUuid: filter.controller_uuid });
    }
    if (filter.kind !== undefined) query.andWhere('sensor.kind = :kind', { kind: filter.kind });
    if (filter.name !== undefined)
      query.andWhere('sensor.name ILIKE :name', { name: likeContains(filter.name) });
    if (filter.serial_number !== undefined) {
      query.andWhere('sensor.serialNumber = :serialNumber', { serialNumber: filter.serial_number });
    }
    return listPage(query, request, SORT_COLUMNS, (rows) => rows.map(toSensorView), {
      list: AssetsSubjects.listSensors,
      tenantUuid,
      table: 'assets.sensors',
    });
  }

  async update(tenantUuid: string, uuid: string, changes: UpdateSensorPayload): Promise<SensorView> {
    return this.dataSource.transaction(async (manager) => {
      const sensor = await manager.findOne(SensorEntity, {
        where: { tenantUuid, uuid },
        lock: { mode: 'pessimistic_write' },
      });
      if (!sensor) throw new NotFoundError('sensor');
      if (changes.kind !== undefined) sensor.kind = changes.kind;
      if (changes.name !== undefined) sensor.name = changes.name;
      if (changes.serial_number !== undefined) sensor.serialNumber = changes.serial_number;
      sensor.updatedAt = new Date();
      await manager.save(SensorEntity, sensor);
      return toSensorView(sensor);
    });
  }

  async delete(tenantUuid: string, uuid: string): Promise<void> {
    const result = await this.dataSource.getRepository(SensorEntity).delete({ tenantUuid, uuid });
    if (!result.affected) throw new NotFoundError('sensor');
  }
}
