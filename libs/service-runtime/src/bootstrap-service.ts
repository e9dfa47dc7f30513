import { type DynamicModule, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CommonServiceConfig } from '@cpc/config';
import { DomainErrorRpcFilter } from '@cpc/errors';
import { createLogger, PinoNestLogger } from '@cpc/logging';
import { MetricsModule } from '@cpc/metrics';
import {
  NatsHandlerMetricsInterceptor,
  natsMicroserviceOptions,
  RequestContextRpcInterceptor,
} from '@cpc/nats';
import type { NestMicroservice } from '@nestjs/microservices';
import { startServiceTracing, TracingShutdown } from '@cpc/tracing';
import { Registry } from 'prom-client';

export interface BootstrapServiceOptions {
  /** Also the NATS queue group, so every replica of a service shares the requests. */
  serviceName: string;
  module: Type<unknown> | DynamicModule;
  config: CommonServiceConfig;
  /** Listen on NATS for request/reply handlers (@MessagePattern); false for apps that only call others. */
  natsRequestHandlers: boolean;
}

/** The service's own module plus GET /metrics on the health listener, and the export of the last spans at shutdown. */
@Module({})
class ServiceRootModule {
  static register(serviceModule: Type<unknown> | DynamicModule): DynamicModule {
    return {
      module: ServiceRootModule,
      imports: [MetricsModule.register({ on: 'app' }), serviceModule],
      providers: [TracingShutdown],
    };
  }
}

export interface RunningService {
  app: INestApplication;
  /** Port of the health/metrics HTTP listener (useful when the config asked for port 0). */
  healthPort: number;
}

/**
 * Starts a backend service the same way everywhere: tracing when OTEL_* configure it (@cpc/tracing), pino logging, a NATS server for its request handlers (typed
 * errors, request ids), a small HTTP listener for health and metrics, and graceful shutdown on SIGTERM/SIGINT.
 */
export async function bootstrapService(options: BootstrapServiceOptions): Promise<RunningService> {
  startServiceTracing(options.serviceName);
  const logger = createLogger(options.serviceName, options.config.logLevel);
  const app = await NestFactory.create<NestFastifyApplication>(
    ServiceRootModule.register(options.module),
    new FastifyAdapter(),
    {
      logger: new PinoNestLogger(logger),
      bufferLogs: false,
    },
  );
  app.enableShutdownHooks();
  if (options.natsRequestHandlers) {
    const natsServer = app.connectMicroservice(
      natsMicroserviceOptions(options.config, options.serviceName),
      // Listeners are built when the server starts, after the filter and interceptor below are registered.
      { inheritAppConfig: false, deferInitialization: true },
    );
    natsServer.useGlobalFilters(new DomainErrorRpcFilter());
    natsServer.useGlobalInterceptors(
      new RequestContextRpcInterceptor(),
      new NatsHandlerMetricsInterceptor(app.get(Registry)),
    );
    // The HTTP application runs the lifecycle hooks; without this a deferred microservice runs them a second time
    // (two consume loops, two timers). Nest sets the same flag itself when initialisation is not deferred.
    (natsServer as NestMicroservice).setIsInitHookCalled(true);
    await app.startAllMicroservices();
  }
  await app.listen(options.config.healthPort, '0.0.0.0');
  const address = app.getHttpServer().address();
  const healthPort = typeof address === 'object' && address ? address.port : options.config.healthPort;
  logger.info({ healthPort }, `${options.serviceName} started`);
  return { app, healthPort };
}
