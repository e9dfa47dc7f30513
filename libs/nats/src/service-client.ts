import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type ClientProxy, NatsRecordBuilder } from '@nestjs/microservices';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { isRpcErrorPayload, REQUEST_ID_HEADER } from '@cpc/contracts';
import { DomainError, ServiceUnavailableError } from '@cpc/errors';
import { currentRequestId } from '@cpc/logging';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { metricSubjectLabel } from './metric-subject-label.js';
import { NatsRequestMetrics, type NatsRequestOutcome } from './nats-request.metrics.js';

export const NATS_RPC_CLIENT = Symbol('NATS_RPC_CLIENT');
export const NATS_REQUEST_TIMEOUT_MS = Symbol('NATS_REQUEST_TIMEOUT_MS');

/**
 * Request/reply to other services over NATS. Carries the current request id in a header, turns a service's typed
 * error back into a DomainError, and a missing or slow service into service_unavailable.
 */
@Injectable()
export class ServiceClient implements OnApplicationShutdown {
  private readonly logger = new Logger(ServiceClient.name);

  constructor(
    @Inject(NATS_RPC_CLIENT) private readonly client: ClientProxy,
    @Inject(NATS_REQUEST_TIMEOUT_MS) private readonly timeoutMs: number,
    private readonly metrics: NatsRequestMetrics = NatsRequestMetrics.unexposed(),
  ) {}

  async request<TResponse, TRequest = unknown>(subject: string, payload: TRequest): Promise<TResponse> {
    const headers = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    const record = new NatsRecordBuilder(payload).setHeaders(headers).build();
    const stopTimer = this.metrics.duration.startTimer({ subject: metricSubjectLabel(subject) });
    let outcome: NatsRequestOutcome = 'ok';
    try {
      return await firstValueFrom(this.client.send<TResponse>(subject, record).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      if (isRpcErrorPayload(error)) {
        outcome = 'error';
        throw DomainError.fromPayload(error);
      }
      if (error instanceof TimeoutError) {
        outcome = 'timeout';
        this.logger.warn(`no reply on ${subject} within ${this.timeoutMs} ms`);
      } else {
        outcome = 'unavailable';
        this.logger.error(
          `request on ${subject} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      throw new ServiceUnavailableError();
    } finally {
      stopTimer({ outcome });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
