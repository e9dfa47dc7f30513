import { type Span, SpanStatusCode, startEntrySpan, TRACEPARENT_HEADER, tracingOn } from '@cpc/tracing';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * One server span per HTTP request, named by its route template (`POST /api/v1/control/commands`), continuing the
 * caller's trace when the request carries a `traceparent`. Attaches nothing while tracing is off. RequestIdInterceptor
 * makes the span the active one for the handler, so that the NATS requests it makes become its children.
 */
export function traceHttpRequests(fastify: FastifyInstance): void {
  if (!tracingOn()) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const traceparent = request.headers[TRACEPARENT_HEADER];
    const span = startEntrySpan(
      `${request.method} ${route}`,
      { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: route },
      typeof traceparent === 'string' ? traceparent : undefined,
    );
    if (span) spans.set(request, span);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    done();
    if (!span) return;
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** The request's span, while tracing is on. */
export function httpRequestSpan(request: FastifyRequest): Span | undefined {
  return spans.get(request);
}
