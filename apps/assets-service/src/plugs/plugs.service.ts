import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AssetsSubjects,
  type CursorAssetPage,
  type CreatePlugPayload,
  type CursorListAssetsPayload,
  type PlugFilter,
  type PlugSortField,
  type PlugView,
  UNKNOWN_PLUG_STATUS,
  type UpdatePlugPayload,
} from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { ControllerEntity, PlugEntity } from '../entities/index.js';
import { insertAsset } from '../shared/asset-inserts.repository.js';
import { ASSET_SORT_COLUMNS, listPage, type SortField } from '../shared/asset-listing.js';
import { isUniqueViolation } from '@cpc/database';
import { toIsoSeconds, toIsoSecondsOrNull } from '../shared/time-format.js';
import { controllerLocations } from './plugs.repository.js';

/** A plug's name is optional: plugs without one sort after the named ones ascending, before them descending. */
const SORT_COLUMNS: Record<PlugSortField, SortField> = {
  created_at: ASSET_SORT_COLUMNS.created_at,
  name: { ...ASSET_SORT_COLUMNS.name, nullable: true },
  connector_id: { column: 'connector_id', type: 'bigint' },
};

function toPlugView(plug: PlugEntity, locationUuid: string): PlugView {
  return {
    uuid: plug.uuid,
    controller_uuid: plug.controllerUuid,
    location_uuid: locationUuid,
    connector_id: plug.connectorId,
    evse_id: plug.evseId,
    name: plug.name,
    standard: plug.standard,
    power_type: plug.powerType,
    max_power_kw: Number(plug.maxPowerKw),
    status: plug.status,
    status_updated_at: toIsoSecondsOrNull(plug.statusUpdatedAt),
    created_at: toIsoSeconds(plug.createdAt),
    updated_at: toIsoSeconds(plug.updatedAt),
  };
}

function connectorTaken(): ValidationFailedError {
  return ValidationFailedError.single(
    'connector_id',
    'already_exists',
    'the controller has a plug with this connector id',
  );
}

@Injectable()
export class PlugsService {
  constructor(private readonly dataSource: DataSource) {}

  async create(tenantUuid: string, payload: CreatePlugPayload): Promise<PlugView> {
    const now = new Date();
    const plug = this.dataSource.getRepository(PlugEntity).create({
      uuid: randomUUID(),
      tenantUuid,
      controllerUuid: payload.controller_uuid.toLowerCase(),
      connectorId: payload.connector_id,
      evseId: payload.evse_id ?? payload.connector_id,
      name: payload.name ?? null,
      standard: payload.standard,
      powerType: payload.power_type,
      maxPowerKw: String(payload.max_power_kw),
      status: UNKNOWN_PLUG_STATUS,
      errorCode: null,
      statusUpdatedAt: null,
      // Both replaced by the database's stamp of the insert (insertAsset).
      createdAt: now,
      updatedAt: now,
    });
    return this.dataSource.transaction(async (manager) => {
      const controller = await manager.findOne(ControllerEntity, {
        where: { tenantUuid, uuid: plug.controllerUuid },
        lock: { mode: 'pessimistic_read' },
      });
      if (!controller)
        throw ValidationFailedError.single('controller_uuid', 'not_found', 'no such controller');
      await this.requireFreeConnector(manager, plug);
      await this.writeOrExplain(() => insertAsset(manager, PlugEntity, plug));
      return this.view(manager, tenantUuid, plug.uuid);
    });
  }

  get(tenantUuid: string, uuid: string): Promise<PlugView> {
    return this.view(this.dataSource.manager, tenantUuid, uuid);
  }

  list(
    tenantUuid: string,
    request: CursorListAssetsPayload<PlugFilter, PlugSortField>,
  ): Promise<CursorAssetPage<PlugView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(PlugEntity)
      .createQueryBuilder('plug')
      .where('plug.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.controller_uuid !== undefined) {
      query.andWhere('plug.controllerUuid = :controllerUuid', { controllerUuid: filter.controller_uuid });
    }
    if (filter.location_uuid !== undefined) {
      query.andWhere(
        `plug.controllerUuid IN (SELECT controller.uuid FROM assets.controllers controller
          WHERE controller.tenant_uuid = :tenantUuid AND controller.location_uuid = :locationUuid)`,
        { locationUuid: filter.location_uuid },
      );
    }
    if (filter.connector_id !== undefined) {
      query.andWhere('plug.connectorId = :connectorId', { connectorId: filter.connector_id });
    }
    if (filter.evse_id !== undefined) query.andWhere('plug.evseId = :evseId', { evseId: filter.evse_id });
    if (filter.standard !== undefined)
      query.andWhere('plug.standard = :standard', { standard: filter.standard });
    if (filter.power_type !== undefined)
      query.andWhere('plug.powerType = :powerType', { powerType: filter.power_type });
    if (filter.status !== undefined) query.andWhere('plug.status = :status', { status: filter.status });
    return listPage(query, request, SORT_COLUMNS, (rows) => this.withLocations(tenantUuid, rows), {
      list: AssetsSubjects.listPlugs,
      tenantUuid,
      table: 'assets.plugs',
    });
  }

  async update(tenantUuid: string, uuid: string, changes: UpdatePlugPayload): Promise<PlugView> {
    return this.dataSource.transaction(async (manager) => {
      const plug = await manager.findOne(PlugEntity, {
        where: { tenantUuid, uuid },
        lock: { mode: 'pessimistic_write' },
      });
      if (!plug) throw new NotFoundError('plug');
      if (changes.connector_id !== undefined) {
        plug.connectorId = changes.connector_id;
        await this.requireFreeConnector(manager, plug);
      }
      if (changes.evse_id !== undefined) plug.evseId = changes.evse_id;
      if (changes.name !== undefined) plug.name = changes.name;
      if (changes.standard !== undefined) plug.standard = changes.standard;
      if (changes.power_type !== undefined) plug.powerType = changes.power_type;
      if (changes.max_power_kw !== undefined) plug.maxPowerKw = String(changes.max_power_kw);
      plug.updatedAt = new Date();
      await this.writeOrExplain(() => manager.save(PlugEntity, plug));
      return this.view(manager, tenantUuid, uuid);
    });
  }

  async delete(tenantUuid: string, uuid: string): Promise<void> {
    const result = await this.dataSource.getRepository(PlugEntity).delete({ tenantUuid, uuid });
    if (!result.affected) throw new NotFoundError('plug');
  }

  private async view(manager: EntityManager, tenantUuid: string, uuid: string): Promise<PlugView> {
    const plug = await manager.findOneBy(PlugEntity, { tenantUuid, uuid });
    if (!plug) throw new NotFoundError('plug');
    const [view] = await this.withLocations(tenantUuid, [plug], manager);
    if (!view) throw new NotFoundError('plug');
    return view;
  }

  /**
   * A plug's location is its controller's, read after the plugs: a plug whose controller was deleted in between went
   * with it, and is left out.
   */
  private async withLocations(
    tenantUuid: string,
    plugs: PlugEntity[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PlugView[]> {
    if (plugs.length === 0) return [];
    const controllerUuids = [...new Set(plugs.map((plug) => plug.controllerUuid))];
    const rows = await runStatement(manager, controllerLocations, { tenantUuid, controllerUuids });
    const locationByController = new Map(rows.map((row) => [row.uuid, row.location_uuid]));
    return plugs.flatMap((plug) => {
      const locationUuid = locationByController.get(plug.controllerUuid);
      return locationUuid === undefined ? [] : [toPlugView(plug, locationUuid)];
    });
  }

  /** Checked first for a clear answer; the unique constraint still decides between two concurrent writes. */
  private async requireFreeConnector(manager: EntityManager, plug: PlugEntity): Promise<void> {
    const taken = await manager
      .createQueryBuilder(PlugEntity, 'other')
      .where('other.tenantUuid = :tenantUuid AND other.controllerUuid = :controllerUuid', {
        tenantUuid: plug.tenantUuid,
        controllerUuid: plug.controllerUuid,
      })
      .andWhere('other.connectorId = :connectorId AND other.uuid <> :uuid', {
        connectorId: plug.connectorId,
        uuid: plug.uuid,
      })
      .getExists();
    if (taken) throw connectorTaken();
  }

  private async writeOrExplain(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, 'plugs_controller_connector_key')) throw connectorTaken();
      throw error;
    }
  }
}
