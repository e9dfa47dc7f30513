import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { runStatement } from '@cpc/database';
import { type DeliveredEvent, JetStreamEventBus } from '@cpc/nats';
import { DataSource, type EntityManager } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import {
  applyToController,
  applyToPlug,
  type ControllerState,
  type PlugState,
  plugOf,
  readStateEvent,
  type StateEvent,
} from './charge-point-state.js';
import {
  controllerStateOf,
  type ControllerStateRow,
  lockControllerStates,
  lockPlugStates,
  type PlugStateRow,
  storedDisconnects,
  writeControllerStates,
  writePlugStates,
} from './charge-point-state.repository.js';

/** Durable names cannot hold dots. */
export const CHARGE_POINT_STATE_CONSUMER = 'assets-service_charge-point-state';

const keyOf = (tenantUuid: string, controllerUuid: string) => `${tenantUuid}/${controllerUuid}`;

/**
 * Keeps the live state of controllers and plugs as the ocpp-gateway reports it: online/offline, protocol, boot
 * information, last contact and each plug's status. One durable consumer over every charge-point event, in stream
 * order, a batch of events at a time (whatever was delivered, up to chargePointStateBatchSize) in one transaction: it
 * reads and locks the batch's controllers and plugs, applies the events to them one by one in stream order (the rules
 * of charge-point-state.ts), and writes back the rows that changed with one statement per table. Events are ordered
 * by (occurredAt, stream sequence), the sequence stored with what it changed, so a redelivered or late event changes
 * nothing, and connections follow the newest connect unless its own disconnect was handled, in whatever order replicas
 * commit; events about unknown or deleted controllers are dropped, malformed ones logged and dropped.
 */
@Injectable()
export class ChargePointStateConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargePointStateConsumer.name);

  constructor(
    private readonly eventBus: JetStreamEventBus,
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventBus.consumeBatches(
      {
        durableName: CHARGE_POINT_STATE_CONSUMER,
        filterSubject: 'events.charge-point.>',
        retryDelayMs: this.tuning.chargePointStateRetryDelayMs,
        maxAckPending: this.tuning.chargePointStateMaxAckPending,
        pullBatchSize: this.tuning.chargePointStatePullBatchSize,
        maxBatchSize: this.tuning.chargePointStateBatchSize,
      },
      (batch) => this.handleBatch(batch),
    );
  }

  /** Applies a batch of events whole or not at all (a failure rolls back, and the batch is redelivered). */
  async handleBatch(batch: readonly DeliveredEvent[]): Promise<void> {
    const events: StateEvent[] = [];
    for (const { subject, event, position } of batch) {
      const read = readStateEvent(subject, event, position.streamSequence);
      if (typeof read === 'string') {
        this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}: ${read}`);
        continue;
      }
      if (read.leftOut)
        this.logger.warn(`event ${String(event.eventId)} on ${subject}: ${read.leftOut}, ignored`);
      events.push(read);
    }
    if (events.length === 0) return;
    await this.dataSource.transaction((manager) => this.apply(manager, events));
  }

  private async apply(manager: EntityManager, events: readonly StateEvent[]): Promise<void> {
    const controllers = await this.lockControllers(manager, events);
    const plugs = await this.lockPlugs(manager, events, controllers);
    const changedControllers = new Map<string, ControllerStateRow>();
    const changedPlugs = new Map<string, PlugState>();
    for (const event of events) {
      const key = keyOf(event.tenantUuid, event.controllerUuid);
      const controller = changedControllers.get(key) ?? controllers.get(key);
      // An unknown or deleted controller, or another tenant's.
      if (!controller) continue;
      const next = applyToController(controller, event);
      if (next !== controller) changedControllers.set(key, { ...controller, ...next });
      if (event.change.kind !== 'connector-status') continue;
      const plug = plugOf(plugs.get(key) ?? [], event.change.plug);
      if (!plug) continue;
      const current = changedPlugs.get(plug.uuid) ?? plug;
      const updated = applyToPlug(current, event.at, event.sequence, event.change);
      if (updated !== current) changedPlugs.set(plug.uuid, updated);
    }
    await this.writeControllers(manager, [...changedControllers.values()]);
    await this.writePlugs(manager, [...changedPlugs.values()]);
  }

  /** The batch's controllers that exist, by tenant and uuid, locked. */
  private async lockControllers(
    manager: EntityManager,
    events: readonly StateEvent[],
  ): Promise<Map<string, ControllerStateRow>> {
    const keys = new Map(events.map((event) => [keyOf(event.tenantUuid, event.controllerUuid), event]));
    const rows = await runStatement(manager, lockControllerStates, {
      tenantUuids: [...keys.values()].map((event) => event.tenantUuid),
      controllerUuids: [...keys.values()].map((event) => event.controllerUuid),
    });
    return new Map(rows.map((row) => [keyOf(row.tenantUuid, row.uuid), controllerStateOf(row)]));
  }

  /** The plugs of the controllers that connector statuses of the batch are about, by controller, locked. */
  private async lockPlugs(
    manager: EntityManager,
    events: readonly StateEvent[],
    controllers: ReadonlyMap<string, ControllerStateRow>,
  ): Promise<Map<string, PlugState[]>> {
    const owners = new Map<string, ControllerStateRow>();
    for (const event of events) {
      const key = keyOf(event.tenantUuid, event.controllerUuid);
      const controller = controllers.get(key);
      if (event.change.kind === 'connector-status' && controller) owners.set(key, controller);
    }
    const plugs = new Map<string, PlugState[]>();
    if (owners.size === 0) return plugs;
    const rows: PlugStateRow[] = await runStatement(manager, lockPlugStates, {
      tenantUuids: [...owners.values()].map((controller) => controller.tenantUuid),
      controllerUuids: [...owners.values()].map((controller) => controller.uuid),
    });
    for (const row of rows) {
      const key = keyOf(row.tenantUuid, row.controllerUuid);
      plugs.set(key, [...(plugs.get(key) ?? []), row]);
    }
    return plugs;
  }

  private async writeControllers(manager: EntityManager, rows: readonly ControllerStateRow[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <T>(pick: (row: ControllerState) => T) => rows.map(pick);
    const disconnects = rows.map(storedDisconnects);
    await runStatement(manager, writeControllerStates, {
      tenantUuids: rows.map((row) => row.tenantUuid),
      uuids: rows.map((row) => row.uuid),
      connectionStatuses: column((row) => row.connectionStatus),
      connectionIds: column((row) => row.connectionId),
      connectionChangedAts: column((row) => row.connectionChangedAt),
      connectionOpenedAts: column((row) => row.connectionOpenedAt),
      connectionOpenedSequences: column((row) => row.connectionOpenedSequence),
      connectionClosedIds: disconnects.map((stored) => stored.connectionClosedId),
      connectionClosedAts: disconnects.map((stored) => stored.connectionClosedAt),
      connectionClosedSequences: disconnects.map((stored) => stored.connectionClosedSequence),
      connectionClosedEarliers: disconnects.map((stored) => stored.connectionClosedEarlier),
      ocppProtocols: column((row) => row.ocppProtocol),
      lastSeenAts: column((row) => row.lastSeenAt),
      vendors: column((row) => row.vendor),
      models: column((row) => row.model),
      serialNumbers: column((row) => row.serialNumber),
      firmwareVersions: column((row) => row.firmwareVersion),
      bootedAts: column((row) => row.bootedAt),
      bootedSequences: column((row) => row.bootedSequence),
    });
  }

  private async writePlugs(manager: EntityManager, rows: readonly PlugState[]): Promise<void> {
    if (rows.length === 0) return;
    await runStatement(manager, writePlugStates, {
      uuids: rows.map((row) => row.uuid),
      statuses: rows.map((row) => row.status),
      errorCodes: rows.map((row) => row.errorCode),
      statusUpdatedAts: rows.map((row) => row.statusUpdatedAt),
      statusUpdatedSequences: rows.map((row) => row.statusUpdatedSequence),
    });
  }
}
