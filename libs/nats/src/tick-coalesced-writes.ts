import type { NatsConnection } from '@nats-io/transport-node';

/** The part of nats.js's protocol handler (NatsConnectionImpl.protocol) that sends what was published. */
interface PendingFlusher {
  flushPending(): void;
}

/**
 * Sends what a connection publishes once per turn of the event loop instead of once per message. nats.js writes its
 * outbound buffer in a microtask, so under load every request or reply costs a socket write of its own (the largest
 * single cost in the services' CPU profiles); deferred to setImmediate, the messages of all the requests that arrived
 * in one poll share one write. The delay is the rest of the current turn, well under a millisecond.
 */
export function coalesceWritesPerTick(connection: NatsConnection): void {
  const protocol = (connection as unknown as { protocol?: PendingFlusher }).protocol;
  if (typeof protocol?.flushPending !== 'function') {
    throw new Error('nats.js connection without protocol.flushPending: cannot coalesce its writes');
  }
  const flushNow = protocol.flushPending.bind(protocol);
  let scheduled = false;
  protocol.flushPending = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flushNow();
    });
  };
}
