import { randomUUID } from 'node:crypto';
import { ChargePointEventSubjects } from '@cpc/contracts';
import type { DeliveredEvent } from '@cpc/nats';

/**
 * Charge-point events of one tenant as JetStreamEventBus delivers them, in the order they are made: for handing
 * ChargingSessionEventsConsumer a batch directly.
 */
export class DeliveredChargePointEvents {
  private streamSequence = 0;

  constructor(private readonly tenantUuid: string) {}

  event(subject: string, controllerUuid: string, data: Record<string, unknown> = {}): DeliveredEvent {
    this.streamSequence += 1;
    return {
      subject,
      event: {
        eventId: randomUUID(),
        occurredAt: new Date().toISOString(),
        tenantUuid: this.tenantUuid,
        data: { controllerUuid, ocppIdentity: 'CP', ...data },
      },
      position: { streamSequence: this.streamSequence, deliveryCount: 1 },
    };
  }

  boot(controllerUuid: string): DeliveredEvent {
    return this.event(ChargePointEventSubjects.booted, controllerUuid, { vendor: 'V', model: 'M' });
  }

  connectorStatus(controllerUuid: string, connectorId: number, status = 'Available'): DeliveredEvent {
    return this.event(ChargePointEventSubjects.connectorStatus, controllerUuid, {
      connectorId,
      evseId: null,
      status,
      errorCode: 'NoError',
      reportedAt: new Date().toISOString(),
    });
  }

  /** A 1.6 start on the connector. */
  transactionStarted(controllerUuid: string, transactionId: string, connectorId: number): DeliveredEvent {
    return this.event(ChargePointEventSubjects.transactionStarted, controllerUuid, {
      transactionId,
      connectorId,
      evseId: null,
      idTag: 'TAG',
      meterStartWh: 0,
      startedAt: '2026-03-05T10:00:00.000Z',
    });
  }
}
