import type { NatsConnection } from '@nats-io/transport-node';

/**
 * Runs `onReconnect` each time `connection` is connected again after losing its server (nats.js's `reconnect`
 * status), until the connection closes. nats.js reports it once its subscriptions are registered with the server
 * again and what it buffered meanwhile is flushed: from then on, a request reaches whoever serves its subject now.
 * What the caller does with it is up to the caller (ask again what may have been lost with the old connection).
 */
export function onNatsReconnect(connection: NatsConnection, onReconnect: () => void): void {
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'reconnect') onReconnect();
    }
  })();
}
