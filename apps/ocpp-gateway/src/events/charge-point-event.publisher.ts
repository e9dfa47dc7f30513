import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';

type ChargePointRefKeys = 'controllerUuid' | 'ocppIdentity';

/** An event's own fields; the publisher adds the charge point's reference from the connection. */
export type EventFields<TEvent extends EventEnvelope<object>> = Omit<TEvent['data'], ChargePointRefKeys>;

/** Whose event it is: a ChargePointConnection, or what the presence registry remembers of one. */
export interface ChargePointEventSource {
  tenantUuid: string;
  ref: Record<ChargePointRefKeys, string>;
}

export interface PublishOptions {
  /**
   * Give an id derived from what the charge point sent when it may send the same message again (transaction
   * messages are retried by charge points): JetStream then stores a repeat within its duplicate window only once.
   */
  eventId?: string;
  /** When it happened, when not now (a connection keeps its events' times increasing). */
  occurredAt?: string;
}

/**
 * Publishes the durable charge-point events (libs/contracts charge-point-events.ts). Handlers answer the charge point
 * only after JetStream acknowledged the event, so an answered message is never a lost one; when NATS is away the
 * handler fails and the charge point gets an error answer and retries.
 */
@Injectable()
export class ChargePointEventPublisher {
  constructor(private readonly bus: JetStreamEventBus) {}

  async publish<TEvent extends EventEnvelope<Record<ChargePointRefKeys, string>>>(
    subject: string,
    source: ChargePointEventSource,
    data: EventFields<TEvent>,
    options: PublishOptions = {},
  ): Promise<void> {
    await this.bus.publish(subject, {
      eventId: options.eventId ?? randomUUID(),
      occurredAt: options.occurredAt ?? new Date().toISOString(),
      tenantUuid: source.tenantUuid,
      data: { ...source.ref, ...data },
    });
  }
}

/** A stable event id (UUID-shaped) from the parts that identify one fact. */
export function eventIdFrom(...parts: (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
