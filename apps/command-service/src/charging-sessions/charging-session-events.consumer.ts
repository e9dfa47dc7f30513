import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type EventEnvelope,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  isUuid,
} from '@cpc/contracts';
import { isDataException } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { type BatchOutcome, type DeliveredEvent, JetStreamEventBus } from '@cpc/nats';
import { COMMAND_SERVICE_CONFIG } from '../command-service-config.token.js';
import type { CommandServiceConfig } from '../command-service.config.js';
import { ChargingSessionPlugResolver } from './charging-session-plug.resolver.js';
import { type SessionPlugState } from '../repositories/charging-sessions.repository.js';
import {
  type SessionController,
  sessionControllerKey,
  ChargingSessionsService,
} from './charging-sessions.service.js';
import { ReservationsService } from '../reservations/reservations.service.js';
import { storableId, storableReading, withoutLeapSecond } from './storable-values.js';

/** Durable names cannot hold dots. */
export const CHARGING_SESSIONS_CONSUMER = 'command-service_charging-sessions';

interface TransactionData {
  controllerUuid?: unknown;
  transactionId?: unknown;
}

interface ConnectorStatusData {
  controllerUuid?: unknown;
  connectorId?: unknown;
  evseId?: unknown;
  status?: unknown;
}

const TRANSACTION_SUBJECTS: readonly string[] = [
  ChargePointEventSubjects.transactionStarted,
  ChargePointEventSubjects.transactionUpdated,
  ChargePointEventSubjects.transactionEnded,
];

/**
 * The events after which their controller may have an open session for the rest of their batch: transactions (a
 * start, or any message of a transaction not heard of yet, opens one) and, to be safe, reservation status updates.
 */
const SESSION_SUBJECTS: readonly string[] = [
  ...TRANSACTION_SUBJECTS,
  ChargePointEventSubjects.reservationStatus,
];

/** The numbers of a transaction event and what the columns take of them (storable-values.ts). */
const STORABLE_FIELDS: Record<string, (value: unknown) => number | null> = {
  connectorId: storableId,
  evseId: storableId,
  meterStartWh: storableReading,
  meterWh: storableReading,
  meterStopWh: storableReading,
};

/** The times of a transaction event. */
const TIME_FIELDS = ['startedAt', 'sampledAt', 'stoppedAt'];

/**
 * The event's data with every number the columns cannot take as null (as if the charge point had left it out), and
 * the names of those fields. A start's connector stays a number (0: none); a 2.0.1 id token longer than the column
 * (OCPP allows 36 characters) is left out too. A time at a leap second is the second after it.
 */
function storableData<T extends object>(data: T): { data: T; leftOut: string[] } {
  const leftOut: string[] = [];
  const storable: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const field of TIME_FIELDS) {
    if (field in storable) storable[field] = withoutLeapSecond(storable[field]);
  }
  for (const [field, storableValue] of Object.entries(STORABLE_FIELDS)) {
    const value = storable[field];
    if (value === undefined || value === null) continue;
    const kept = storableValue(value);
    if (kept !== value) {
      leftOut.push(`${field} ${JSON.stringify(value)}`);
      storable[field] = field === 'connectorId' && typeof value === 'number' ? (kept ?? 0) : kept;
    }
  }
  const { idTag } = storable;
  if (idTag !== undefined && idTag !== null && !(typeof idTag === 'string' && idTag.length <= 36)) {
    leftOut.push('idTag');
    storable.idTag = null;
  }
  return { data: storable as T, leftOut };
}

const hasLocation = (data: TransactionUpdatedEvent['data'] | TransactionEndedEvent['data']) =>
  typeof data.evseId === 'number' || typeof data.connectorId === 'number';

/** What ends sessions a reboot interrupted: the boot, then a connector reporting Available. */
type RebootSignal = SessionController &
  ({ kind: 'boot'; bootedAt: string } | { kind: 'available'; connectorId: number; evseId: number | null });

/** The boot or Available status `event` reports; undefined for any other event, and for a malformed one. */
function rebootSignalOf(subject: string, event: EventEnvelope<unknown>): RebootSignal | undefined {
  const { tenantUuid } = event;
  if (subject === ChargePointEventSubjects.booted) {
    const { controllerUuid } = (event.data ?? {}) as { controllerUuid?: unknown };
    if (!isUuid(tenantUuid) || !isUuid(controllerUuid) || typeof event.occurredAt !== 'string')
      return undefined;
    return { kind: 'boot', tenantUuid, controllerUuid, bootedAt: event.occurredAt };
  }
  if (subject !== ChargePointEventSubjects.connectorStatus) return undefined;
  const { controllerUuid, connectorId, evseId, status } = (event.data ?? {}) as ConnectorStatusData;
  if (
    status !== 'Available' ||
    !isUuid(tenantUuid) ||
    !isUuid(controllerUuid) ||
    !Number.isInteger(connectorId) ||
    (connectorId as number) <= 0 ||
    !(evseId === null || evseId === undefined || Number.isInteger(evseId))
  ) {
    return undefined;
  }
  return {
    kind: 'available',
    tenantUuid,
    controllerUuid,
    connectorId: connectorId as number,
    evseId: (evseId as number | null | undefined) ?? null,
  };
}

/** The controller an event that may open a session names (SESSION_SUBJECTS); undefined for others. */
function sessionControllerOf(subject: string, event: EventEnvelope<unknown>): SessionController | undefined {
  if (!SESSION_SUBJECTS.includes(subject)) return undefined;
  const { controllerUuid } = (event.data ?? {}) as { controllerUuid?: unknown };
  return isUuid(event.tenantUuid) && isUuid(controllerUuid)
    ? { tenantUuid: event.tenantUuid, controllerUuid }
    : undefined;
}

/**
 * Turns the gateway's transaction events into charging sessions, and keeps them true to what the charge point does:
 * a new transaction on a connector supersedes the one left open there, and a connector that reports Available after
 * its charge point booted ends the sessions the boot interrupted. A transaction that names a reservation uses it up,
 * and a 2.0.1 ReservationStatusUpdate ends one (ReservationsService). One durable consumer over all charge-point events
 * (NATS 2.9 allows one filter subject per consumer, and one consumer keeps boots, statuses and transactions in stream
 * order); the other subjects are acknowledged and skipped.
 *
 * Events come in batches (handleBatch), so that a reconnect storm's boots and connector statuses, nearly all of
 * controllers without an open session, cost one statement a batch instead of one each. A batch is not one
 * transaction (a plug is looked up in assets-service midway): an event that fails is redelivered on its own while
 * the rest of its batch is acknowledged, as when events were consumed one by one, and the whole batch when the
 * open-session check fails. Every write here is idempotent (an upsert that keeps what is known, or an UPDATE guarded
 * by the state it leaves), so an event handled again changes nothing it wrote the first time.
 */
@Injectable()
export class ChargingSessionEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargingSessionEventsConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly sessions: ChargingSessionsService,
    private readonly plugs: ChargingSessionPlugResolver,
    private readonly reservations: ReservationsService,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consumeBatches(
      {
        durableName: CHARGING_SESSIONS_CONSUMER,
        filterSubject: 'events.charge-point.>',
        maxBatchSize: this.config.tuning.chargingSessionEventsBatchSize,
      },
      (batch) => this.handleBatch(batch),
    );
  }

  /**
   * The batch's events in stream order, each on its own, except that a boot or an Available status is skipped when its
   * controller can have no open session, as nothing would change: one statement asks which of the batch's
   * controllers had one at its start, and a controller counts as having one from its first transaction or reservation
   * event in the batch on (that event may have opened one).
   */
  async handleBatch(batch: readonly DeliveredEvent[]): Promise<BatchOutcome> {
    const signals = batch.map(({ subject, event }) => rebootSignalOf(subject, event));
    const mayHaveOpenSession = await this.sessions.controllersWithOpenSessions(
      signals.filter((signal) => signal !== undefined),
    );
    const redeliver = new Set<number>();
    for (const [index, { subject, event }] of batch.entries()) {
      try {
        const signal = signals[index];
        if (signal) {
          if (mayHaveOpenSession.has(sessionControllerKey(signal))) await this.applyRebootSignal(signal);
          continue;
        }
        const controller = sessionControllerOf(subject, event);
        if (controller) mayHaveOpenSession.add(sessionControllerKey(controller));
        await this.handle(subject, event);
      } catch (error) {
        // A value PostgreSQL refuses (a data exception) is refused again on every delivery: the event is dropped,
        // not redelivered for ever.
        if (isDataException(error)) {
          this.logger.warn(
            `not storing ${subject} (event ${String(event.eventId)}): a value does not fit: ${describeError(error)}`,
          );
          continue;
        }
        // Only this event comes again, as it did when events were consumed one by one: one that always fails must
        // not hold back the rest of its batch.
        this.logger.error(
          `handling ${subject} (event ${String(event.eventId)}) failed, redelivering: ${describeError(error)}`,
        );
        redeliver.add(index);
      }
    }
    return { redeliver };
  }

  /** A transaction or reservation event (other subjects are skipped). */
  private async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    if (subject === ChargePointEventSubjects.reservationStatus)
      return this.reservations.recordStatusUpdate(event);
    if (!TRANSACTION_SUBJECTS.includes(subject)) return;
    const data = (event.data ?? {}) as TransactionData;
    if (
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      typeof data.transactionId !== 'string' ||
      data.transactionId === '' ||
      data.transactionId.length > 36
    ) {
      this.logger.warn(`ignoring malformed event ${String(event.eventId)} on ${subject}`);
      return;
    }
    const storable = storableData(data);
    if (storable.leftOut.length > 0) {
      this.logger.warn(
        `event ${String(event.eventId)} on ${subject}: left out what does not fit: ${storable.leftOut.join(', ')}`,
      );
    }
    switch (subject) {
      case ChargePointEventSubjects.transactionStarted: {
        const started = storable.data as TransactionStartedEvent['data'];
        const session = await this.sessions.recordStart(event.tenantUuid, started);
        await this.supersedeOlder(session);
        await this.reservations.recordUse(event.tenantUuid, started);
        return this.resolvePlug(event.tenantUuid, data.controllerUuid, session);
      }
      case ChargePointEventSubjects.transactionUpdated: {
        const updated = storable.data as TransactionUpdatedEvent['data'];
        const { idTag } = updated;
        const hasIdTag = typeof idTag === 'string' && idTag !== '';
        if (
          updated.meterWh !== null ||
          (!hasLocation(updated) && updated.reservationId === undefined && !hasIdTag)
        ) {
          await this.sessions.recordMeterValue(event.tenantUuid, updated);
        }
        if (hasIdTag) await this.sessions.recordIdTag(event.tenantUuid, { ...updated, idTag });
        await this.reservations.recordUse(event.tenantUuid, updated);
        return this.completeLocation(event.tenantUuid, updated);
      }
      default: {
        const ended = storable.data as TransactionEndedEvent['data'];
        await this.sessions.recordEnd(event.tenantUuid, ended);
        return this.completeLocation(event.tenantUuid, ended);
      }
    }
  }

  private async applyRebootSignal(signal: RebootSignal): Promise<void> {
    const { tenantUuid, controllerUuid } = signal;
    if (signal.kind === 'boot') {
      await this.sessions.markRebooted(tenantUuid, controllerUuid, signal.bootedAt);
      return;
    }
    const ended = await this.sessions.endRebootedOnConnector(
      tenantUuid,
      controllerUuid,
      signal.connectorId,
      signal.evseId,
    );
    if (ended > 0) {
      this.logger.log(
        `${ended} session(s) on connector ${signal.connectorId} of controller ${controllerUuid} ended: ` +
          'the charge point rebooted and reports the connector Available',
      );
    }
  }

  private async supersedeOlder(session: SessionPlugState): Promise<void> {
    const ended = await this.sessions.supersedeOlder(session.uuid);
    if (ended > 0)
      this.logger.log(`session ${session.uuid} superseded ${ended} older one(s) on its connector`);
  }

  /** A later message named the EVSE / connector: a session the start left without a plug gets one now. */
  private async completeLocation(
    tenantUuid: string,
    data: TransactionUpdatedEvent['data'] | TransactionEndedEvent['data'],
  ): Promise<void> {
    if (!hasLocation(data)) return;
    const session = await this.sessions.recordLocation(tenantUuid, data);
    if (session) await this.resolvePlug(tenantUuid, data.controllerUuid, session);
  }

  private async resolvePlug(
    tenantUuid: string,
    controllerUuid: string,
    session: SessionPlugState,
  ): Promise<void> {
    if (session.plugUuid !== null || !session.started) return;
    const resolution = await this.plugs.resolve(
      tenantUuid,
      controllerUuid,
      session.connectorId,
      session.evseId,
    );
    if (resolution.plugUuid === null) {
      // Never silently: the session stays without a plug until a message names what is missing.
      this.logger.warn(`charging session ${session.uuid} has no plug yet: ${resolution.reason}`);
      return;
    }
    const superseded = await this.sessions.setPlug(session.uuid, resolution.plugUuid);
    if (superseded > 0) {
      this.logger.log(
        `session ${session.uuid} superseded ${superseded} older one(s) on plug ${resolution.plugUuid}`,
      );
    }
  }
}
