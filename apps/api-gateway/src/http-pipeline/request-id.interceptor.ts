import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { runWithRequestId } from '@cpc/logging';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

/** Makes Fastify's request id (from `X-Request-Id` or generated) the id every log line and NATS hop carries. */
@Injectable()
export class RequestIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return new Observable((subscriber) =>
      runWithRequestId(request.id, () => next.handle().subscribe(subscriber)),
    );
  }
}
