import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import type { MsgHdrs } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import { Observable } from 'rxjs';

/** Restores the caller's request id around every NATS handler, so the service's log lines carry it. */
@Injectable()
export class RequestContextRpcInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpcContext = context.switchToRpc().getContext<unknown>();
    const headers =
      rpcContext instanceof NatsContext ? (rpcContext.getHeaders() as MsgHdrs | undefined) : undefined;
    const requestId = headers?.get(REQUEST_ID_HEADER);
    return new Observable((subscriber) =>
      runWithRequestId(requestId || undefined, () => next.handle().subscribe(subscriber)),
    );
  }
}
