import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { COMMAND_TARGET_TYPES, COMMAND_TYPES, validateCommandRequest } from '@cpc/ocpp-commands';
import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import {
  commandRequestSchemaName,
  CREATE_COMMAND_REQUEST_SCHEMA,
} from '../commands/command-request-schemas.js';
import {
  COMMITTED_OPENAPI_PATH,
  generateOpenApiDocument,
  REGENERATE_OPENAPI_COMMAND,
} from './generate-openapi-document.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

describe('the OpenAPI document', () => {
  let document: OpenAPIObject;
  let schemas: Record<string, SchemaObject>;

  beforeAll(async () => {
    document = await generateOpenApiDocument();
    schemas = document.components?.schemas as Record<string, SchemaObject>;
  });

  it(`is committed as ${COMMITTED_OPENAPI_PATH}, as the code generates it`, async () => {
    const committed: unknown = JSON.parse(await readFile(resolve(COMMITTED_OPENAPI_PATH), 'utf8'));
    const fresh: unknown = JSON.parse(JSON.stringify(document));
    if (JSON.stringify(committed) !== JSON.stringify(fresh)) {
      throw new Error(
        `${COMMITTED_OPENAPI_PATH} is stale: run \`${REGENERATE_OPENAPI_COMMAND}\` and commit the result`,
      );
    }
  });

  it('gives every operation an operationId of its own', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
        return operation ? [operation.operationId] : [];
      }),
    );
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the create-command body per type, keyed by type with a discriminator', () => {
    const body = document.paths['/api/v1/control/commands'].post?.requestBody as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    expect(body.content['application/json'].schema.$ref).toBe(
      `#/components/schemas/${CREATE_COMMAND_REQUEST_SCHEMA}`,
    );
    const create = schemas[CREATE_COMMAND_REQUEST_SCHEMA];
    expect(create.discriminator?.propertyName).toBe('type');
    expect(Object.keys(create.discriminator?.mapping ?? {})).toEqual([...COMMAND_TYPES]);
    expect(create.oneOf).toHaveLength(COMMAND_TYPES.length);
    for (const type of COMMAND_TYPES) {
      const request = schemas[commandRequestSchemaName(type)];
      expect(create.discriminator?.mapping?.[type]).toBe(
        `#/components/schemas/${commandRequestSchemaName(type)}`,
      );
      expect((request.properties?.type as SchemaObject).enum).toEqual([type]);
      expect((request.properties?.target_type as SchemaObject).enum).toEqual(COMMAND_TARGET_TYPES[type]);
    }
  });

  describe.each(COMMAND_TYPES)('the parameters of %s', (type) => {
    const judge = (parameters: Record<string, unknown>) =>
      validateCommandRequest({ type, target_type: COMMAND_TARGET_TYPES[type][0], parameters });

    const parametersSchema = (): SchemaObject => {
      const property = schemas[commandRequestSchemaName(type)].properties?.parameters as {
        $ref?: string;
      } & SchemaObject;
      return property.$ref ? schemas[property.$ref.split('/').pop() as string] : property;
    };

    it('name the fields the parser knows, and only those', () => {
      const fields = Object.keys(parametersSchema().properties ?? {});
      const known = judge(Object.fromEntries(fields.map((field) => [field, null])));
      expect(known.filter((issue) => issue.errorKey === 'unknown_field')).toEqual([]);
      const unknown = judge({ not_a_field: 1 });
      expect(unknown).toContainEqual(
        expect.objectContaining({ errorKey: 'unknown_field', parameter: 'parameters.not_a_field' }),
      );
    });

    it('mark as required what the parser requires', () => {
      const required = judge({})
        .filter((issue) => issue.errorKey === 'required')
        .map((issue) => issue.parameter.replace(/^parameters\./, ''));
      expect([...(parametersSchema().required ?? [])].sort()).toEqual(required.sort());
    });
  });
});
