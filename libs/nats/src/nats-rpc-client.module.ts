import { type DynamicModule, Module } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { NatsRequestMetrics } from './nats-request.metrics.js';
import { NATS_REQUEST_TIMEOUT_MS, NATS_RPC_CLIENT, ServiceClient } from './service-client.js';

export interface NatsRpcClientOptions {
  natsUrl: string;
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
                servers: options.natsUrl.split(','),
                name: `${options.clientName}-rpc-client`,
                // A stack captured for every request in case it fails: nothing logs it, every request pays for it.
                noAsyncTraces: true,
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
