import { applyDecorators, Delete, Get, HttpCode, Patch, Post, type Type } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { RequirePermission } from '../authentication/require-permission.decorator.js';
import { ApiErrorResponses, BODY_ERROR_STATUSES, STANDARD_ERROR_STATUSES } from '../openapi/error-bodies.js';
import { ApiFilterQueries, EmptyBody } from '../common/asset-list-query.js';

interface Operation {
  permission: string;
  summary: string;
  description?: string;
}

const documented = (operation: Operation, withBody = false) =>
  applyDecorators(
    RequirePermission(operation.permission),
    ApiOperation({ summary: operation.summary, description: operation.description }),
    ApiErrorResponses(
      withBody ? [...BODY_ERROR_STATUSES, ...STANDARD_ERROR_STATUSES] : STANDARD_ERROR_STATUSES,
    ),
  );

/** The `{uuid}` path parameter as the OpenAPI document shows it. */
export const ApiAssetUuid = (kind: string) =>
  ApiParam({ name: 'uuid', description: `${kind} UUID`, schema: { type: 'string', format: 'uuid' } });

/** POST /assets/<kind> → 201 `{<singular>: …}`. */
export const CreateRoute = (operation: Operation, response: Type) =>
  applyDecorators(Post(), HttpCode(201), documented(operation, true), ApiCreatedResponse({ type: response }));

/** GET /assets/<kind> → 200 `{<plural>: [...], pagination}`. */
export const ListRoute = (
  operation: Operation,
  response: Type,
  filters: Record<string, Record<string, unknown>>,
) =>
  applyDecorators(Get(), documented(operation), ApiFilterQueries(filters), ApiOkResponse({ type: response }));

/** GET /assets/<kind>/{uuid} → 200 `{<singular>: …}`. */
export const ReadRoute = (operation: Operation, response: Type, kind: string) =>
  applyDecorators(Get(':uuid'), documented(operation), ApiAssetUuid(kind), ApiOkResponse({ type: response }));

/** PATCH /assets/<kind>/{uuid} → 200 `{<singular>: …}`. */
export const UpdateRoute = (operation: Operation, response: Type, kind: string) =>
  applyDecorators(
    Patch(':uuid'),
    documented(operation, true),
    ApiAssetUuid(kind),
    ApiOkResponse({ type: response }),
  );

/** DELETE /assets/<kind>/{uuid} → 200 `{}` (sensors declare their own 204). */
export const DeleteRoute = (operation: Operation, kind: string) =>
  applyDecorators(
    Delete(':uuid'),
    HttpCode(200),
    documented(operation, true),
    ApiAssetUuid(kind),
    ApiOkResponse({ type: EmptyBody, description: 'Deleted; the body is an empty object.' }),
  );

/** DELETE /assets/sensors/{uuid} → 204, no body; the uuid is the spec's lower-case version-4 pattern. */
export const DeleteWithoutBodyRoute = (operation: Operation, uuidPattern: RegExp) =>
  applyDecorators(
    Delete(':uuid'),
    HttpCode(204),
    documented(operation, true),
    ApiParam({
      name: 'uuid',
      description: 'A version-4 UUID in lower-case hexadecimal.',
      schema: { type: 'string', pattern: uuidPattern.source },
    }),
    ApiNoContentResponse({ description: 'Deleted; no body.' }),
  );
