import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { commandRequestSchemas } from '../commands/command-request-schemas.js';
import { operationIdFor } from './operation-ids.js';

export const OPENAPI_JSON_PATH = 'api/v1/openapi.json';
export const DOCS_UI_PATH = 'docs';

/** The OpenAPI 3.1 document, generated from the controllers and DTOs; served as JSON and as a browsable UI. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.1')
    .setTitle('Charging Platform Core API')
    .setDescription(
      'Commands, assets and the OAuth 2.0 token endpoint. Errors: `{error}`; validation errors: ' +
        '`{errors:[{errorKey,message,parameter}]}`.',
    )
    .setVersion('1.125.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: operationIdFor });
  // Schemas no DTO class can express (a oneOf with a discriminator), referenced by the routes' decorators.
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...commandRequestSchemas() },
  };
  return document;
}

export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(DOCS_UI_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: undefined,
  });
}
