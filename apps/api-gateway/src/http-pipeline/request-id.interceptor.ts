import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { runWithRequestId } from '@cpc/logging';
import { runInSpan } from '@cpc/tracing';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { httpRequestSpan } from './http-tracing.js';

/**
 * Makes Fastify's request id (from `X-Request-Id` or generated) the id every log line and NATS hop carries, and the
 * request's span (when traced) the active span of its handler.
 */
@Injectable()
export class RequestIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const span = httpRequestSpan(request);
    return new Observable((subscriber) =>
      runWithRequestId(request.id, () => runInSpan(span, () => next.handle().subscribe(subscriber))),
    );
  }
}
