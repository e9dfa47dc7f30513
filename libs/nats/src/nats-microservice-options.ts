import { type CustomStrategy, ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  NATS_RECONNECT_OPTIONS,
  natsClientOptions,
  type NatsConnectionSettings,
} from './nats-client-options.js';
import { NO_ASYNC_TRACES } from './nats-connection.module.js';
import { coalesceWritesPerTick } from './tick-coalesced-writes.js';

/**
 * Nest's NATS server, finding the handler of a subject without first trying to read the subject as JSON (object
 * patterns): for a subject such as `assets.location.get.v1` that attempt threw a SyntaxError on every message, one
 * of the larger costs of a request in the services' CPU profiles. The route found is the same.
 */
export class SubjectServerNats extends ServerNats {
  protected override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }

  /** Replies go out once per turn of the event loop (see coalesceWritesPerTick). */
  override async createNatsClient(): Promise<NatsConnection> {
    const connection = (await super.createNatsClient()) as NatsConnection;
    coalesceWritesPerTick(connection);
    return connection;
  }
}

/**
 * Options for a service's NATS server. Every instance of a service joins the same queue group, so each request is
 * handled by exactly one instance and replicas scale out without configuration.
 */
export function natsMicroserviceOptions(
  settings: NatsConnectionSettings,
  queueGroup: string,
): CustomStrategy {
  return {
    strategy: new SubjectServerNats({
      ...natsClientOptions(settings),
      ...NATS_RECONNECT_OPTIONS,
      queue: queueGroup,
      name: queueGroup,
      gracefulShutdown: true,
      gracePeriod: 5000,
      noAsyncTraces: NO_ASYNC_TRACES,
    }),
  };
}
