import { Inject, Injectable } from '@nestjs/common';
import { Histogram, Registry } from 'prom-client';

/** Seconds; NATS requests within a cluster take milliseconds, a slow one up to NATS_REQUEST_TIMEOUT_MS. */
export const NATS_LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Outcome of a request as the caller saw it: `error` is a typed error reply, `timeout`/`unavailable` no reply. */
export type NatsRequestOutcome = 'ok' | 'error' | 'timeout' | 'unavailable';

/** Caller-side latency of ServiceClient requests, by subject (see metricSubjectLabel) and outcome. */
@Injectable()
export class NatsRequestMetrics {
  readonly duration: Histogram<'subject' | 'outcome'>;

  constructor(@Inject(Registry) registry: Registry) {
    this.duration = new Histogram({
      name: 'nats_request_duration_seconds',
      help: 'Duration of NATS requests to other services, from request to reply, as the caller sees it',
      labelNames: ['subject', 'outcome'],
      buckets: NATS_LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** For a ServiceClient built outside an application (tests): measured, but exposed nowhere. */
  static unexposed(): NatsRequestMetrics {
    return new NatsRequestMetrics(new Registry());
  }
}
