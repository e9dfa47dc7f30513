import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadApiGatewayConfig } from '../api-gateway.config.js';
import { ApiGatewayModule } from '../api-gateway.module.js';
import { applyRoutePrefix } from '../create-api-gateway-app.js';
import { RouteMethods } from '../http-pipeline/route-methods.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** Where the committed document lives, relative to the repository root. */
export const COMMITTED_OPENAPI_PATH = 'docs/openapi.json';
export const REGENERATE_OPENAPI_COMMAND = 'npm run openapi';

/**
 * The document the api-gateway serves, built without NATS: Nest's preview mode reads the modules, controllers and
 * decorators but instantiates nothing, so no connection is made.
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiGatewayModule.register(loadApiGatewayConfig({}), new RouteMethods()),
    new FastifyAdapter(),
    { preview: true, logger: false },
  );
  try {
    applyRoutePrefix(app);
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
