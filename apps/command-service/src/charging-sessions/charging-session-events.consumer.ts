import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ChargePointEventSubjects,
  type EventEnvelope,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  UUID_PATTERN,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import { ChargingSessionPlugResolver } from './charging-session-plug.resolver.js';
import { type SessionPlugState } from '../repositories/charging-sessions.repository.js';
import { ChargingSessionsService } from './charging-sessions.service.js';

/** Durable names cannot hold dots. */
export const CHARGING_SESSIONS_CONSUMER = 'command-service_charging-sessions';

interface TransactionData {
  controllerUuid?: unknown;
  transactionId?: unknown;
}

/**
 * Turns the gateway's transaction events into charging sessions. One durable consumer over all charge-point events
 * (NATS 2.9 allows one filter subject per consumer, and one consumer keeps started/updated/ended in stream order);
 * the other subjects are acknowledged and skipped.
 */
@Injectable()
export class ChargingSessionEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChargingSessionEventsConsumer.name);

  constructor(
    private readonly bus: JetStreamEventBus,
    private readonly sessions: ChargingSessionsService,
    private readonly plugs: ChargingSessionPlugResolver,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(
      { durableName: CHARGING_SESSIONS_CONSUMER, filterSubject: 'events.charge-point.>' },
      (subject, event) => this.handle(subject, event),
    );
  }

  async handle(subject: string, event: EventEnvelope<unknown>): Promise<void> {
    if (
      subject !== ChargePointEventSubjects.transactionStarted &&
      subject !== ChargePointEventSubjects.transactionUpdated &&
      subject !== ChargePointEventSubjects.transactionEnded
    ) {
      return;
    }
    const data = (event.data ?? {}) as TransactionData;
    if (
      typeof event.tenantUuid !== 'string' ||
      !UUID_PATTERN.test(event.tenantUuid) ||
      typeof data.controllerUuid !== 'string' ||
      !UUID_PATTERN.test(data.controllerUuid) ||
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
        return this.resolvePlug(event.tenantUuid, data.controllerUuid, session);
      }
      case ChargePointEventSubjects.transactionUpdated:
        return this.sessions.recordMeterValue(event.tenantUuid, (event as TransactionUpdatedEvent).data);
      default:
        return this.sessions.recordEnd(event.tenantUuid, (event as TransactionEndedEvent).data);
    }
  }

  private async resolvePlug(
    tenantUuid: string,
    controllerUuid: string,
    session: SessionPlugState,
  ): Promise<void> {
    if (session.plugUuid !== null || session.connectorId === null) return;
    const plugUuid = await this.plugs.resolve(
      tenantUuid,
      controllerUuid,
      session.connectorId,
      session.evseId,
    );
    if (plugUuid) await this.sessions.setPlug(session.uuid, plugUuid);
  }
}
