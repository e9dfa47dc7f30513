import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { HealthIndicator, HealthIndicatorResult } from '@cpc/health';
import { describeError } from '@cpc/errors';
import { JetStreamEventBus } from './jetstream-event-bus.js';
import {
  NATS_RECONNECT_OPTIONS,
  natsClientOptions,
  type NatsConnectionSettings,
} from './nats-client-options.js';
import { NATS_CONNECTION } from './nats-connection.token.js';
import { settleAnsweredRequestsQuietly } from './answered-requests.js';
import { coalesceWritesPerTick } from './tick-coalesced-writes.js';

/** Drains the raw connection on shutdown so published events are flushed before the process exits. */
@Injectable()
class NatsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}

/** Ready while the raw connection to NATS is open and the server answers a round trip. */
@Injectable()
export class NatsHealthIndicator implements HealthIndicator {
  readonly name = 'nats';

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async check(): Promise<HealthIndicatorResult> {
    if (this.connection.isClosed()) return { healthy: false, detail: 'connection closed' };
    try {
      await this.connection.flush();
      return { healthy: true };
    } catch (error) {
      return { healthy: false, detail: describeError(error) };
    }
  }
}

/**
 * nats.js otherwise builds an Error (a stack trace) for every request and JetStream publish, to give a failure the
 * caller's stack; in the services' CPU profiles that was 5-7 % of command-service's time. Failures keep their message.
 */
export const NO_ASYNC_TRACES = true;

/**
 * A plain nats.js connection for what Nest's transport does not cover: broadcasts, JetStream, key-value buckets.
 * It reconnects forever: a NATS restart must not take the service down.
 */
@Module({})
export class NatsConnectionModule {
  static register(options: NatsConnectionSettings & { connectionName: string }): DynamicModule {
    return {
      module: NatsConnectionModule,
      global: true,
      providers: [
        {
          provide: NATS_CONNECTION,
          useFactory: async () => {
            settleAnsweredRequestsQuietly();
            const connection = await connect({
              ...natsClientOptions(options),
              ...NATS_RECONNECT_OPTIONS,
              name: options.connectionName,
              noAsyncTraces: NO_ASYNC_TRACES,
            });
            // JetStream publishes, their acks, key-value operations and the gateway's call replies: one write per turn.
            coalesceWritesPerTick(connection);
            return connection;
          },
        },
        NatsConnectionCloser,
        NatsHealthIndicator,
        JetStreamEventBus,
      ],
      exports: [NATS_CONNECTION, NatsHealthIndicator, JetStreamEventBus],
    };
  }
}
