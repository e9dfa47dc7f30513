import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import type { MsgHdrs } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER, REQUEST_TIMEOUT_HEADER } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import { inChildSpan, SpanKind, TRACEPARENT_HEADER, tracingOn } from '@cpc/tracing';
import { Observable } from 'rxjs';

/** The moment a request's caller stops waiting: its timeout from now (a missing or malformed header: none). */
export function deadlineOf(timeoutHeader: string | undefined, now: number = Date.now()): number | undefined {
  const timeoutMs = Number(timeoutHeader);
  return timeoutHeader && Number.isFinite(timeoutMs) && timeoutMs > 0 ? now + timeoutMs : undefined;
}

/**
 * Restores the caller's request id and deadline (REQUEST_TIMEOUT_HEADER, counted from receipt) around every NATS
 * handler, so the service's log lines carry the id; a request that carries a sampled `traceparent` is handled in a
 * server span that continues the caller's trace.
 */
@Injectable()
export class RequestContextRpcInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpcContext = context.switchToRpc().getContext<unknown>();
    const nats = rpcContext instanceof NatsContext ? rpcContext : undefined;
    const headers = nats?.getHeaders() as MsgHdrs | undefined;
    const requestId = headers?.get(REQUEST_ID_HEADER);
    const deadlineAt = deadlineOf(headers?.get(REQUEST_TIMEOUT_HEADER));
    const traceparent = tracingOn() ? headers?.get(TRACEPARENT_HEADER) : undefined;
    if (!traceparent || !nats) {
      return new Observable((subscriber) =>
        runWithRequestId(requestId || undefined, () => next.handle().subscribe(subscriber), deadlineAt),
      );
    }
    const subject = nats.getSubject();
    return new Observable((subscriber) =>
      runWithRequestId(
        requestId || undefined,
        () => {
          void inChildSpan(
            `process ${subject}`,
            {
              kind: SpanKind.SERVER,
              traceparent,
              attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
            },
            () =>
              new Promise<void>((resolve, reject) => {
                next.handle().subscribe({
                  next: (value) => subscriber.next(value),
                  error: (error: unknown) => {
                    subscriber.error(error);
                    reject(error instanceof Error ? error : new Error(String(error)));
                  },
                  complete: () => {
                    subscriber.complete();
                    resolve();
                  },
                });
              }),
          ).catch(() => undefined);
        },
        deadlineAt,
      ),
    );
  }
}
