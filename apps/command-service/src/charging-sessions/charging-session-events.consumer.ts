import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type EventEnvelope,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  isUuid,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { ChargingSessionPlugResolver } from './charging-session-plug.resolver.js';
import { type SessionPlugState } from '../repositories/charging-sessions.repository.js';
import { ChargingSessionsService } from './charging-sessions.service.js';
import { ReservationsService } from '../reservations/reservations.service.js';

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

const hasLocation = (data: TransactionUpdatedEvent['data'] | TransactionEndedEvent['data']) =>
  typeof data.evseId === 'number' || typeof data.connectorId === 'number';

/**
 * Turns the gateway's transaction events into charging sessions, and keeps them true to what the charge point does:
 * a new transaction on a connector supersedes the one left open there, and a connector that reports Available after
 * its charge point booted ends the sessions the boot interrupted. A transaction that names a reservation uses it up,
 * and a 2.0.1 ReservationStatusUpdate ends one (ReservationsService). One durable consumer over all charge-point events
 * (NATS 2.9 allows one filter subject per consumer, and one consumer keeps boots, statuses and transactions in stream
 * order); the other subjects are acknowledged and skipped.
 */
@Injectable()
export class ChargingSessionEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargingSessionEventsConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly sessions: ChargingSessionsService,
    private readonly plugs: ChargingSessionPlugResolver,
    private readonly reservations: ReservationsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(
      { durableName: CHARGING_SESSIONS_CONSUMER, filterSubject: 'events.charge-point.>' },
      (subject, event) => this.handle(subject, event),
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    if (subject === ChargePointEventSubjects.booted) return this.handleBoot(event);
    if (subject === ChargePointEventSubjects.connectorStatus) return this.handleConnectorStatus(event);
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
    switch (subject) {
      case ChargePointEventSubjects.transactionStarted: {
        const session = await this.sessions.recordStart(
          event.tenantUuid,
          (event as TransactionStartedEvent).data,
        );
        await this.supersedeOlder(session);
        await this.reservations.recordUse(event.tenantUuid, (event as TransactionStartedEvent).data);
        return this.resolvePlug(event.tenantUuid, data.controllerUuid, session);
      }
      case ChargePointEventSubjects.transactionUpdated: {
        const updated = (event as TransactionUpdatedEvent).data;
        if (updated.meterWh !== null || (!hasLocation(updated) && updated.reservationId === undefined)) {
          await this.sessions.recordMeterValue(event.tenantUuid, updated);
        }
        await this.reservations.recordUse(event.tenantUuid, updated);
        return this.completeLocation(event.tenantUuid, updated);
      }
      default: {
        const ended = (event as TransactionEndedEvent).data;
        await this.sessions.recordEnd(event.tenantUuid, ended);
        return this.completeLocation(event.tenantUuid, ended);
      }
    }
  }

  private async handleBoot(event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as { controllerUuid?: unknown };
    if (!isUuid(event.tenantUuid) || !isUuid(data.controllerUuid) || typeof event.occurredAt !== 'string')
      return;
    await this.sessions.markRebooted(event.tenantUuid, data.controllerUuid, event.occurredAt);
  }

  private async handleConnectorStatus(event: EventEnvelope<unknown>): Promise<void> {
    const data = (event.data ?? {}) as ConnectorStatusData;
    if (
      data.status !== 'Available' ||
      !isUuid(event.tenantUuid) ||
      !isUuid(data.controllerUuid) ||
      !Number.isInteger(data.connectorId) ||
      (data.connectorId as number) <= 0 ||
      !(data.evseId === null || data.evseId === undefined || Number.isInteger(data.evseId))
    ) {
      return;
    }
    const ended = await this.sessions.endRebootedOnConnector(
      event.tenantUuid,
      data.controllerUuid,
      data.connectorId as number,
      (data.evseId as number | null | undefined) ?? null,
    );
    if (ended > 0) {
      this.logger.log(
        `${ended} session(s) on connector ${String(data.connectorId)} of controller ${data.controllerUuid} ended: ` +
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
