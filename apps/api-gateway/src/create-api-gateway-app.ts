import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { createLogger, PinoNestLogger } from '@cpc/logging';
import qs from 'qs';
import type { ApiGatewayConfig } from './api-gateway.config.js';
import { traceHttpRequests } from './http-pipeline/http-tracing.js';
import { startServiceTracing } from '@cpc/tracing';
import { ApiGatewayModule } from './api-gateway.module.js';
import { serveConsole } from './console/serve-console.js';
import { refuseEncodedBodies } from './http-pipeline/content-encoding.js';
import { acceptIdTokenImports } from './authorization/id-token-import.js';
import { HttpRequestMetrics } from './http-pipeline/http-request.metrics.js';
import { answerClientError } from './http-pipeline/client-error-handler.js';
import { lingerOnEarlyClose } from './http-pipeline/lingering-close.js';
import { omitUnsetFields } from './http-pipeline/omit-unset-fields.js';
import { RouteMethods } from './http-pipeline/route-methods.js';
import { attachSecurityHeaders } from './http-pipeline/security-headers.js';
import { serveOpenApi } from './openapi/openapi-document.js';

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/** Every route under `/api/v1` but the health checks; the OpenAPI generator applies the same. */
export function applyRoutePrefix(app: INestApplication): void {
  app.setGlobalPrefix('api/v1', { exclude: ['health/live', 'health/ready'] });
}

/**
 * Builds the HTTP API: Fastify with bounded bodies (JSON and the form encoding OAuth clients send; Nest registers both), bracket query parsing (`filter[type]=…`),
 * request ids, spans when tracing is on, OpenAPI, the management console's files at /console.
 */
export async function createApiGatewayApp(config: ApiGatewayConfig): Promise<NestFastifyApplication> {
  startServiceTracing('api-gateway');
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-For is read only when the TCP peer is a trusted proxy, and only as far as the chain stays trusted
    // (proxy-addr); from anyone else it is ignored and `request.ip` is the peer's own address.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    routerOptions: {
      ignoreTrailingSlash: true,
      // A path parameter of any length reaches its validation (422 on `uuid`); Node's 16 KB header limit bounds it.
      maxParamLength: 16 * 1024,
      querystringParser: (query: string) => qs.parse(query, { depth: 1, arrayLimit: 0, parameterLimit: 100 }),
    },
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    logger: false,
    clientErrorHandler: answerClientError,
    // The router's own refusals (a path that is not valid percent-encoding) in the spec's `{error}` shape.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid percent-encoding' : error.message;
      void reply.code(error.statusCode ?? 400).send({ error: message });
    },
  });
  // JSON and form bodies only (Nest registers both), and NDJSON for the id-token import; anything else is a 415.
  adapter.getInstance().removeContentTypeParser('text/plain');
  acceptIdTokenImports(adapter.getInstance(), config.importBodyLimitBytes);
  refuseEncodedBodies(adapter.getInstance());
  // A refused body (413, 400) is answered before it is read; the close lingers so that the client gets the answer.
  lingerOnEarlyClose(adapter.getInstance().server, {
    idleMs: config.tuning.lingerIdleMs,
    totalMs: config.tuning.lingerTotalMs,
    maxBytes: config.tuning.lingerMaxBytes,
  });
  traceHttpRequests(adapter.getInstance());
  const routeMethods = new RouteMethods();
  routeMethods.attachTo(adapter.getInstance());
  adapter.getInstance().addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  attachSecurityHeaders(adapter.getInstance(), { hstsMaxAgeSeconds: config.hstsMaxAgeSeconds });
  omitUnsetFields(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiGatewayModule.register(config, routeMethods),
    adapter,
    {
      logger: new PinoNestLogger(createLogger('api-gateway', config.logLevel)),
    },
  );
  // Routes are registered when the app initialises, after this; the hook sees each one's template.
  app.get(HttpRequestMetrics).attachTo(adapter.getInstance());
  applyRoutePrefix(app);
  app.enableShutdownHooks();
  serveOpenApi(app);
  await serveConsole(app);
  return app;
}
