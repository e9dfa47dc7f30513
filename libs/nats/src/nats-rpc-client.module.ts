import { type DynamicModule, Module } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { NO_ASYNC_TRACES } from './nats-connection.module.js';
import {
  NATS_RECONNECT_OPTIONS,
  natsClientOptions,
  type NatsConnectionSettings,
} from './nats-client-options.js';
import { NatsRequestMetrics } from './nats-request.metrics.js';
import { NATS_REQUEST_TIMEOUT_MS, NATS_RPC_CLIENT, ServiceClient } from './service-client.js';

export interface NatsRpcClientOptions extends NatsConnectionSettings {
  clientName: string;
  requestTimeoutMs: number;
}

/** Provides ServiceClient, the only way one service calls another (its metrics need MetricsModule's registry). */
@Module({})
export class NatsRpcClientModule {
  static register(options: NatsRpcClientOptions): DynamicModule {
    return {
      module: NatsRpcClientModule,
      global: true,
      providers: [
        {
          provide: NATS_RPC_CLIENT,
          useFactory: () =>
            ClientProxyFactory.create({
              transport: Transport.NATS,
              options: {
                ...natsClientOptions(options),
                ...NATS_RECONNECT_OPTIONS,
                name: `${options.clientName}-rpc-client`,
                noAsyncTraces: NO_ASYNC_TRACES,
              },
            }),
        },
        { provide: NATS_REQUEST_TIMEOUT_MS, useValue: options.requestTimeoutMs },
        NatsRequestMetrics,
        ServiceClient,
      ],
      exports: [ServiceClient],
    };
  }
}
