import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  type MsgHdrs,
  type NatsConnection,
  headers as natsHeaders,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { isRpcErrorPayload, REQUEST_ID_HEADER, REQUEST_TIMEOUT_HEADER } from '@cpc/contracts';
import { describeError, DomainError, ServiceUnavailableError } from '@cpc/errors';
import { currentRequestId } from '@cpc/logging';
import { activeTraceparent, inChildSpan, SpanKind, TRACEPARENT_HEADER, tracingOn } from '@cpc/tracing';
import { metricSubjectLabel } from './metric-subject-label.js';
import { NatsRequestMetrics, type NatsRequestOutcome } from './nats-request.metrics.js';
import { coalesceWritesPerTick } from './tick-coalesced-writes.js';

export const NATS_RPC_CLIENT = Symbol('NATS_RPC_CLIENT');
export const NATS_REQUEST_TIMEOUT_MS = Symbol('NATS_REQUEST_TIMEOUT_MS');

/** Nest's server answers only packets with an id (others are events); replies are told apart by their inbox. */
const REQUEST_ID_PREFIX = `${process.pid}-`;

interface NestReply<TResponse> {
  err?: unknown;
  response?: TResponse;
}

/** A reply that carries an error (a service's RpcErrorPayload, or Nest's own when no handler matched). */
class ErrorReply extends Error {
  constructor(readonly err: unknown) {
    super('error reply');
  }
}

/** The client span of a NATS request (OpenTelemetry's messaging conventions). */
export function natsClientSpan(subject: string) {
  return {
    kind: SpanKind.CLIENT,
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
  };
}

function isNoResponders(error: unknown): boolean {
  return (
    error instanceof NoRespondersError ||
    (error instanceof RequestError && error.isNoResponders()) ||
    (error instanceof Error && error.cause instanceof NoRespondersError)
  );
}

/**
 * Request/reply to other services over NATS. Carries its timeout, the current request id and, in a traced request, its
 * span's traceparent (a client span per request) in headers, turns a service's typed
 * error back into a DomainError, and a missing or slow service into service_unavailable.
 */
@Injectable()
export class ServiceClient implements OnApplicationShutdown {
  private readonly logger = new Logger(ServiceClient.name);
  private sent = 0;
  private coalesced: NatsConnection | undefined;

  constructor(
    @Inject(NATS_RPC_CLIENT) private readonly client: ClientProxy,
    @Inject(NATS_REQUEST_TIMEOUT_MS) private readonly timeoutMs: number,
    private readonly metrics: NatsRequestMetrics = NatsRequestMetrics.unexposed(),
  ) {}

  async request<TResponse, TRequest = unknown>(subject: string, payload: TRequest): Promise<TResponse> {
    const stopTimer = this.metrics.duration.startTimer({ subject: metricSubjectLabel(subject) });
    let outcome: NatsRequestOutcome = 'ok';
    try {
      const reply = tracingOn()
        ? await inChildSpan(`send ${subject}`, natsClientSpan(subject), () =>
            this.exchange<TResponse>(subject, payload),
          )
        : await this.exchange<TResponse>(subject, payload);
      if (reply.err) throw new ErrorReply(reply.err);
      // A handler that answered nothing (Nest's client ended without a value): no answer to give.
      if (reply.response === undefined) throw new Error(`no response on ${subject}`);
      return reply.response;
    } catch (thrown) {
      const error = thrown instanceof ErrorReply ? thrown.err : thrown;
      if (isRpcErrorPayload(error)) {
        outcome = 'error';
        throw DomainError.fromPayload(error);
      }
      if (error instanceof TimeoutError) {
        outcome = 'timeout';
        this.logger.warn(`no reply on ${subject} within ${this.timeoutMs} ms`);
      } else if (isNoResponders(error)) {
        // Nobody answers the subject right now: its service is starting, restarting or down. The caller answers
        // service_unavailable and retries; nothing in this process went wrong.
        outcome = 'unavailable';
        this.logger.warn(`nobody answers ${subject} now`);
      } else {
        outcome = 'unavailable';
        this.logger.error(`request on ${subject} failed: ${describeError(error)}`);
      }
      throw new ServiceUnavailableError();
    } finally {
      stopTimer({ outcome });
    }
  }

  /**
   * One request in the wire format of Nest's NATS transport (`{pattern, data, id}` out, `{err, response, id}` back),
   * sent with nats.js's own request: replies arrive on the connection's one multiplexed inbox, where Nest's client
   * subscribed and unsubscribed an inbox per request (two more protocol messages and a socket write each time).
   */
  private async exchange<TResponse>(subject: string, payload: unknown): Promise<NestReply<TResponse>> {
    const connection = (await this.client.connect()) as NatsConnection;
    if (connection !== this.coalesced) {
      coalesceWritesPerTick(connection);
      this.coalesced = connection;
    }
    const requestId = currentRequestId();
    const traceparent = activeTraceparent();
    const headers: MsgHdrs = natsHeaders();
    headers.set(REQUEST_TIMEOUT_HEADER, String(this.timeoutMs));
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
    if (traceparent) headers.set(TRACEPARENT_HEADER, traceparent);
    const packet = JSON.stringify({
      pattern: subject,
      data: payload,
      id: `${REQUEST_ID_PREFIX}${++this.sent}`,
    });
    const message = await connection.request(subject, packet, { timeout: this.timeoutMs, headers });
    if (message.data.length === 0) throw new Error(`empty response on ${subject}`);
    return message.json<NestReply<TResponse>>();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
