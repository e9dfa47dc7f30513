import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { describeError } from '@cpc/errors';

/**
 * Hears every message of a core-NATS broadcast subject as JSON. A message that does not parse, or that `heard`
 * rejects by throwing, is skipped with a warning naming `what` it should have been: a broadcast is a hint that the
 * listener's own reloads back up, never a reason to stop listening.
 */
export function listenForJsonBroadcasts<T>(
  connection: NatsConnection,
  subject: string,
  what: string,
  logger: { warn(message: string): void },
  heard: (message: T) => void,
): Subscription {
  return connection.subscribe(subject, {
    callback: (error, message) => {
      if (error) return;
      try {
        heard(message.json<T>());
      } catch (malformed) {
        logger.warn(`ignoring a malformed ${what}: ${describeError(malformed)}`);
      }
    },
  });
}
