import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { Histogram, Registry } from 'prom-client';

/** The route label of requests no route matched: raw URLs would make one series per probe of a scanner. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Latency of every HTTP request, labelled by route template (`/api/v1/assets/locations/:uuid`), not raw URL. */
@Injectable()
export class HttpRequestMetrics {
  readonly duration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(@Inject(Registry) registry: Registry) {
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests to the API, from receipt to the last byte of the response',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  attachTo(instance: FastifyInstance): void {
    instance.addHook('onResponse', async (request, reply) => {
      this.duration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? UNMATCHED_ROUTE,
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
  }
}
