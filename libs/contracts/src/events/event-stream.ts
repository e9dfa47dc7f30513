/**
 * Durable events travel on one JetStream stream. Every subject on it starts with `events.` and ends with a version.
 * Consumers are durable and ack explicitly, so an event published while its consumer is down is handled on restart.
 */
export const EVENT_STREAM = {
  name: 'CPC_EVENTS',
  subjects: ['events.>'],
  /** How long events are kept for consumers that were down. */
  maxAgeSeconds: 7 * 24 * 3600,
  /** Window in which a repeated publish with the same event id is dropped (publisher retries). */
  duplicateWindowSeconds: 120,
} as const;

/** Every durable event carries these beside its own fields. */
export interface EventEnvelope<TData> {
  /** Unique id of this event; JetStream deduplicates repeated publishes of the same id. */
  eventId: string;
  /** When the fact happened, ISO 8601. */
  occurredAt: string;
  tenantUuid: string;
  data: TData;
}
