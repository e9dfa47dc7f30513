import { type CustomStrategy, type NatsOptions, ServerNats } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
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
  private servedConnection: NatsConnection | undefined;
  private readonly servedSubscriptions: Subscription[] = [];
  private requestsInHand = 0;

  /**
   * `shutdownGraceMs`: at close, how long requests already taken may still take to be answered. Nest's own graceful
   * shutdown always sleeps its whole grace period; this one stops when the last request in hand is answered.
   */
  constructor(
    options: Required<NatsOptions>['options'],
    private readonly shutdownGraceMs = 5000,
  ) {
    super({ ...options, gracefulShutdown: false });
  }

  protected override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }

  /** Replies go out once per turn of the event loop (see coalesceWritesPerTick). */
  override async createNatsClient(): Promise<NatsConnection> {
    const connection = (await super.createNatsClient()) as NatsConnection;
    coalesceWritesPerTick(connection);
    const subscribe = connection.subscribe.bind(connection);
    connection.subscribe = (...args: Parameters<NatsConnection['subscribe']>) => {
      const subscription = subscribe(...args);
      this.servedSubscriptions.push(subscription);
      return subscription;
    };
    this.servedConnection = connection;
    return connection;
  }

  override async handleMessage(channel: string, message: unknown): Promise<unknown> {
    this.requestsInHand += 1;
    try {
      return await super.handleMessage(channel, message);
    } finally {
      this.requestsInHand -= 1;
    }
  }

  /** Takes no more requests (the queue group's other members get them), answers those in hand, then disconnects. */
  override async close(): Promise<void> {
    if (this.servedConnection && !this.servedConnection.isClosed()) {
      for (const subscription of this.servedSubscriptions.splice(0)) subscription.unsubscribe();
      const deadline = Date.now() + this.shutdownGraceMs;
      while (this.requestsInHand > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Replies leave on the next turn of the event loop (coalesceWritesPerTick).
      await new Promise((resolve) => setImmediate(resolve));
    }
    await super.close();
  }
}

/** At shutdown, the longest the requests a service has taken get to be answered (NATS requests take milliseconds). */
const SHUTDOWN_GRACE_MS = 5000;

/**
 * Options for a service's NATS server. Every instance of a service joins the same queue group, so each request is
 * handled by exactly one instance and replicas scale out without configuration.
 */
export function natsMicroserviceOptions(
  settings: NatsConnectionSettings,
  queueGroup: string,
): CustomStrategy {
  return {
    strategy: new SubjectServerNats(
      {
        ...natsClientOptions(settings),
        ...NATS_RECONNECT_OPTIONS,
        queue: queueGroup,
        name: queueGroup,
        noAsyncTraces: NO_ASYNC_TRACES,
      },
      SHUTDOWN_GRACE_MS,
    ),
  };
}
