import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import { Histogram, type Registry } from 'prom-client';
import { finalize, type Observable, tap } from 'rxjs';
import { metricSubjectLabel } from './metric-subject-label.js';
import { NATS_LATENCY_BUCKETS } from './nats-request.metrics.js';

/** Times every NATS request handler of the service (nats_handler_duration_seconds). */
export class NatsHandlerMetricsInterceptor implements NestInterceptor {
  private readonly duration: Histogram<'subject' | 'outcome'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'nats_handler_duration_seconds',
      help: "Duration of this service's NATS request handlers, from receipt to reply",
      labelNames: ['subject', 'outcome'],
      buckets: NATS_LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpcContext = context.switchToRpc().getContext<unknown>();
    const subject =
      rpcContext instanceof NatsContext ? metricSubjectLabel(rpcContext.getSubject()) : 'unknown';
    const stop = this.duration.startTimer({ subject });
    let outcome: 'ok' | 'error' = 'ok';
    return next.handle().pipe(
      tap({ error: () => (outcome = 'error') }),
      finalize(() => stop({ outcome })),
    );
  }
}
