import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type CursorAssetPage,
  AssetsSubjects,
  type ControllerCredentialField,
  type ControllerCredentialsChangedEvent,
  type ControllerDeletedEvent,
  type ControllerFilter,
  type ControllersExistRequest,
  type ControllerView,
  type CreateControllerPayload,
  isUuid,
  type CursorListAssetsPayload,
  PASSWORD_SECURITY_PROFILES,
  type UpdateControllerPayload,
} from '@cpc/contracts';
import { runStatement, TransactionalOutbox } from '@cpc/database';
import { NotFoundError, ValidationFailedError } from '@cpc/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { OcppPasswordHasher } from '../charge-points/ocpp-password-hasher.js';
import { ControllerEntity, LocationEntity } from '../entities/index.js';
import { controllerView, existingControllers, type ViewedController } from './controllers.repository.js';
import { insertAsset } from '../shared/asset-inserts.repository.js';
import { likeContains, listPage, ASSET_SORT_COLUMNS } from '../shared/asset-listing.js';
import { isUniqueViolation } from '@cpc/database';
import { toIsoSeconds, toIsoSecondsOrNull } from '../shared/time-format.js';

const SORT_COLUMNS = ASSET_SORT_COLUMNS;
const DEFAULT_SECURITY_PROFILE = 1;

export function toControllerView(controller: ViewedController): ControllerView {
  return {
    uuid: controller.uuid,
    location_uuid: controller.locationUuid,
    name: controller.name,
    ocpp_identity: controller.ocppIdentity,
    security_profile: controller.securityProfile,
    has_ocpp_password: controller.ocppPasswordHash !== null,
    connection_status: controller.connectionStatus,
    ocpp_protocol: controller.ocppProtocol,
    last_seen_at: toIsoSecondsOrNull(controller.lastSeenAt),
    vendor: controller.vendor,
    model: controller.model,
    serial_number: controller.serialNumber,
    firmware_version: controller.firmwareVersion,
    firmware_status: controller.firmwareStatus,
    firmware_status_at: toIsoSecondsOrNull(controller.firmwareStatusAt),
    diagnostics_status: controller.diagnosticsStatus,
    diagnostics_status_at: toIsoSecondsOrNull(controller.diagnosticsStatusAt),
    created_at: toIsoSeconds(controller.createdAt),
    updated_at: toIsoSeconds(controller.updatedAt),
  };
}

function identityTaken(): ValidationFailedError {
  return ValidationFailedError.single(
    'ocpp_identity',
    'already_exists',
    'another controller of this tenant has this OCPP identity (identities compare case-insensitively)',
  );
}

@Injectable()
export class ControllersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: TransactionalOutbox,
    private readonly passwords: OcppPasswordHasher,
  ) {}

  async create(tenantUuid: string, payload: CreateControllerPayload): Promise<ControllerView> {
    const securityProfile = payload.security_profile ?? DEFAULT_SECURITY_PROFILE;
    if (PASSWORD_SECURITY_PROFILES.includes(securityProfile) && !payload.ocpp_password) {
      throw ValidationFailedError.single(
        'ocpp_password',
        'required',
        `security profile ${securityProfile} authenticates with HTTP Basic auth and needs an ocpp_password`,
      );
    }
    const now = new Date();
    const controller = this.dataSource.getRepository(ControllerEntity).create({
      uuid: randomUUID(),
      tenantUuid,
      locationUuid: payload.location_uuid.toLowerCase(),
      name: payload.name,
      ocppIdentity: payload.ocpp_identity,
      ocppPasswordHash: payload.ocpp_password ? await this.passwords.hash(payload.ocpp_password) : null,
      securityProfile,
      credentialsVersion: 1,
      connectionStatus: 'offline',
      connectionId: null,
      connectionChangedAt: null,
      ocppProtocol: null,
      lastSeenAt: null,
      vendor: null,
      model: null,
      serialNumber: null,
      firmwareVersion: null,
      bootedAt: null,
      firmwareStatus: null,
      firmwareStatusAt: null,
      diagnosticsStatus: null,
      diagnosticsStatusAt: null,
      // Both replaced by the database's stamp of the insert (insertAsset).
      createdAt: now,
      updatedAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.requireLocation(manager, tenantUuid, controller.locationUuid);
      await this.requireFreeIdentity(manager, controller);
      await this.insertOrExplain(() => insertAsset(manager, ControllerEntity, controller));
    });
    return toControllerView(controller);
  }

  async get(tenantUuid: string, uuid: string): Promise<ControllerView> {
    const [controller] = await runStatement(this.dataSource, controllerView, { tenantUuid, uuid });
    if (!controller) throw new NotFoundError('controller');
    return toControllerView(controller);
  }

  /**
   * Whether each controller exists for its tenant, in the given order, with one statement for all of them: every
   * command created for a controller is checked here, many at a time. A malformed uuid is simply not found.
   */
  async exist(controllers: ControllersExistRequest['controllers']): Promise<boolean[]> {
    const wellFormed = controllers.map(
      (controller) => isUuid(controller?.tenantUuid) && isUuid(controller?.uuid),
    );
    const asked = controllers.filter((_, index) => wellFormed[index]);
    const rows =
      asked.length === 0
        ? []
        : await runStatement(this.dataSource, existingControllers, {
            tenantUuids: asked.map((controller) => controller.tenantUuid),
            uuids: asked.map((controller) => controller.uuid),
          });
    // Positions count from 1 among the well-formed ones.
    const found = new Set(rows.map((row) => Number(row.position) - 1));
    let askedIndex = 0;
    return wellFormed.map((isWellFormed) => isWellFormed && found.has(askedIndex++));
  }

  list(
    tenantUuid: string,
    request: CursorListAssetsPayload<ControllerFilter>,
  ): Promise<CursorAssetPage<ControllerView>> {
    const { filter } = request;
    const query = this.dataSource
      .getRepository(ControllerEntity)
      .createQueryBuilder('controller')
      .where('controller.tenantUuid = :tenantUuid', { tenantUuid });
    if (filter.location_uuid !== undefined) {
      query.andWhere('controller.locationUuid = :locationUuid', { locationUuid: filter.location_uuid });
    }
    if (filter.name !== undefined)
      query.andWhere('controller.name ILIKE :name', { name: likeContains(filter.name) });
    if (filter.ocpp_identity !== undefined) {
      query.andWhere('lower(controller.ocppIdentity) = lower(:identity)', { identity: filter.ocpp_identity });
    }
    if (filter.connection_status !== undefined) {
      query.andWhere('controller.connectionStatus = :connectionStatus', {
        connectionStatus: filter.connection_status,
      });
    }
    if (filter.security_profile !== undefined) {
      query.andWhere('controller.securityProfile = :securityProfile', {
        securityProfile: filter.security_profile,
      });
    }
    return listPage(query, request, SORT_COLUMNS, (rows) => rows.map(toControllerView), {
      list: AssetsSubjects.listControllers,
      tenantUuid,
      table: 'assets.controllers',
    });
  }

  /**
   * A change of the password, security profile or identity also raises the credentials version and writes a
   * ControllerCredentialsChangedEvent in the same transaction: the gateway closes the socket that authenticated with
   * the old credentials, wherever it is held.
   */
  async update(tenantUuid: string, uuid: string, changes: UpdateControllerPayload): Promise<ControllerView> {
    const passwordHash =
      changes.ocpp_password === undefined || changes.ocpp_password === null
        ? changes.ocpp_password
        : await this.passwords.hash(changes.ocpp_password);
    const updated = await this.dataSource.transaction(async (manager) => {
      const controller = await this.find(manager, tenantUuid, uuid, true);
      const changedCredentials: ControllerCredentialField[] = [];
      if (changes.location_uuid !== undefined) {
        controller.locationUuid = changes.location_uuid.toLowerCase();
        await this.requireLocation(manager, tenantUuid, controller.locationUuid);
      }
      if (changes.name !== undefined) controller.name = changes.name;
      if (changes.ocpp_identity !== undefined && changes.ocpp_identity !== controller.ocppIdentity) {
        controller.ocppIdentity = changes.ocpp_identity;
        changedCredentials.push('ocpp_identity');
        await this.requireFreeIdentity(manager, controller);
      }
      if (changes.security_profile !== undefined && changes.security_profile !== controller.securityProfile) {
        controller.securityProfile = changes.security_profile;
        changedCredentials.push('security_profile');
      }
      // Any password given counts, even the same one again: the operator means to lock out whoever had it.
      if (passwordHash !== undefined && !(passwordHash === null && controller.ocppPasswordHash === null)) {
        controller.ocppPasswordHash = passwordHash;
        changedCredentials.push('ocpp_password');
      }
      if (
        PASSWORD_SECURITY_PROFILES.includes(controller.securityProfile) &&
        controller.ocppPasswordHash === null
      ) {
        throw ValidationFailedError.single(
          'ocpp_password',
          'required',
          `security profile ${controller.securityProfile} authenticates with HTTP Basic auth and needs an ocpp_password`,
        );
      }
      controller.updatedAt = new Date();
      if (changedCredentials.length > 0) controller.credentialsVersion += 1;
      await this.insertOrExplain(() => manager.save(ControllerEntity, controller));
      if (changedCredentials.length > 0) {
        await this.enqueueCredentialsChanged(manager, controller, changedCredentials);
      }
      return { view: toControllerView(controller), credentialsChanged: changedCredentials.length > 0 };
    });
    if (updated.credentialsChanged) await this.outbox.flush();
    return updated.view;
  }

  /**
   * Removes the controller with its plugs and attached sensors (foreign keys cascade) and tells the gateway to drop
   * its connection; the event is written in the same transaction, so it is published even after a crash.
   */
  async delete(tenantUuid: string, uuid: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const controller = await this.find(manager, tenantUuid, uuid, true);
      await manager.delete(ControllerEntity, { tenantUuid, uuid: controller.uuid });
      const deletedAt = new Date().toISOString();
      const event: ControllerDeletedEvent = {
        eventId: randomUUID(),
        occurredAt: deletedAt,
        tenantUuid,
        data: {
          controllerUuid: controller.uuid,
          ocppIdentity: controller.ocppIdentity,
          locationUuid: controller.locationUuid,
          deletedAt,
        },
      };
      await this.outbox.add(manager, [{ subject: AssetsSubjects.controllerDeleted, envelope: event }]);
    });
    await this.outbox.flush();
  }

  private async enqueueCredentialsChanged(
    manager: EntityManager,
    controller: ControllerEntity,
    changed: ControllerCredentialField[],
  ): Promise<void> {
    const changedAt = controller.updatedAt.toISOString();
    const event: ControllerCredentialsChangedEvent = {
      eventId: randomUUID(),
      occurredAt: changedAt,
      tenantUuid: controller.tenantUuid,
      data: {
        controllerUuid: controller.uuid,
        ocppIdentity: controller.ocppIdentity,
        credentialsVersion: controller.credentialsVersion,
        changed,
        changedAt,
      },
    };
    await this.outbox.add(manager, [
      { subject: AssetsSubjects.controllerCredentialsChanged, envelope: event },
    ]);
  }

  private async find(
    manager: EntityManager,
    tenantUuid: string,
    uuid: string,
    forUpdate = false,
  ): Promise<ControllerEntity> {
    const controller = await manager.findOne(ControllerEntity, {
      where: { tenantUuid, uuid },
      ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!controller) throw new NotFoundError('controller');
    return controller;
  }

  private async requireLocation(
    manager: EntityManager,
    tenantUuid: string,
    locationUuid: string,
  ): Promise<void> {
    // FOR SHARE: a concurrent delete of the location waits for this transaction and then sees the controller.
    const location = await manager.findOne(LocationEntity, {
      where: { tenantUuid, uuid: locationUuid },
      lock: { mode: 'pessimistic_read' },
    });
    if (!location) throw ValidationFailedError.single('location_uuid', 'not_found', 'no such location');
  }

  /** Checked first for a clear answer; the unique index still decides between two concurrent writes. */
  private async requireFreeIdentity(manager: EntityManager, controller: ControllerEntity): Promise<void> {
    const taken = await manager
      .createQueryBuilder(ControllerEntity, 'other')
      .where('other.tenantUuid = :tenantUuid', { tenantUuid: controller.tenantUuid })
      .andWhere('lower(other.ocppIdentity) = lower(:identity)', { identity: controller.ocppIdentity })
      .andWhere('other.uuid <> :uuid', { uuid: controller.uuid })
      .getExists();
    if (taken) throw identityTaken();
  }

  private async insertOrExplain(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error, 'controllers_tenant_identity_key')) throw identityTaken();
      throw error;
    }
  }
}
