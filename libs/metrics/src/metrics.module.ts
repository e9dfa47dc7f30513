import { createServer, type Server } from 'node:http';
import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describeError } from '@cpc/errors';
import { MetricsController } from './metrics.controller.js';

export type MetricsExposure =
  /** GET /metrics on the application's own HTTP listener (the services' health port). */
  | { on: 'app' }
  /** GET /metrics on a listener of its own, for an app whose HTTP listener is public (api-gateway). */
  | { on: 'own-port'; port: number };

const METRICS_PORT = Symbol('METRICS_PORT');

/** The listener of `{ on: 'own-port' }`: answers GET /metrics and 404 to anything else. */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsListener.name);
  private server: Server | undefined;

  constructor(
    @Inject(Registry) private readonly registry: Registry,
    @Inject(METRICS_PORT) private readonly requestedPort: number,
  ) {}

  /** The bound port (differs from the requested one when that was 0). */
  get port(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : this.requestedPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      this.registry.metrics().then(
        (body) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(body),
        (error: unknown) => {
          this.logger.error(`metrics collection failed: ${describeError(error)}`);
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.requestedPort, '0.0.0.0', () => resolve());
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * One Prometheus registry per application (so two services in one test process never share a metric), with the
 * Node.js process metrics; features register their own metrics on the injected `Registry`.
 */
@Module({})
export class MetricsModule {
  static register(exposure: MetricsExposure): DynamicModule {
    const registryProvider = {
      provide: Registry,
      useFactory: (): Registry => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry });
        return registry;
      },
    };
    return exposure.on === 'app'
      ? {
          module: MetricsModule,
          global: true,
          providers: [registryProvider],
          controllers: [MetricsController],
          exports: [Registry],
        }
      : {
          module: MetricsModule,
          global: true,
          providers: [registryProvider, { provide: METRICS_PORT, useValue: exposure.port }, MetricsListener],
          exports: [Registry, MetricsListener],
        };
  }
}
