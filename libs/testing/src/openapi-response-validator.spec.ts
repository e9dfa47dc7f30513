import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedToUndocumentedProperties, OpenApiResponseValidator } from './openapi-response-validator.js';

const ITEM = {
  type: 'object',
  properties: { uuid: { type: 'string' }, details: { type: 'object', additionalProperties: true } },
  required: ['uuid'],
};

const document = {
  paths: {
    '/api/v1/items/{uuid}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    item: { $ref: '#/components/schemas/Item' },
                    pagination: {
                      anyOf: [
                        { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
                        { type: 'object', properties: { cursor: { type: 'string' } }, required: ['cursor'] },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Item: ITEM } },
};

describe('OpenApiResponseValidator', () => {
  const validator = new OpenApiResponseValidator(document);
  const check = (body: unknown) => () => validator.validate('GET', '/api/v1/items/x', 200, body);

  it('accepts an answer with the documented properties, and any inside a free-form map', () => {
    expect(check({ item: { uuid: 'a', details: { anything: 1 } }, pagination: { page: 1 } })).not.toThrow();
    expect(check({ item: { uuid: 'a' }, pagination: { cursor: 'c' } })).not.toThrow();
  });

  it('refuses a property the document does not describe, at any depth', () => {
    expect(check({ item: { uuid: 'a' }, extra: true })).toThrow(/must NOT have additional properties/);
    expect(check({ item: { uuid: 'a', colour: 'red' } })).toThrow(/must NOT have additional properties/);
    expect(check({ item: { uuid: 'a' }, pagination: { page: 1, total: 3 } })).toThrow(/pagination/);
  });

  it('leaves enums, examples and defaults as they are, and refuses an allOf it cannot close', () => {
    const schema = {
      type: 'object',
      properties: { a: { enum: [{ properties: {} }] } },
      example: { properties: 1 },
    };
    expect(closedToUndocumentedProperties(schema)).toEqual({ ...schema, additionalProperties: false });
    expect(() => closedToUndocumentedProperties({ allOf: [ITEM, ITEM] })).toThrow(/allOf of 2 schemas/);
    expect(closedToUndocumentedProperties({ allOf: [{ $ref: '#/x' }] })).toEqual({
      allOf: [{ $ref: '#/x' }],
    });
  });

  it('closes the committed OpenAPI document', () => {
    const committed = JSON.parse(
      readFileSync(join(process.cwd(), 'docs/openapi.json'), 'utf8'),
    ) as typeof document;
    expect(() => new OpenApiResponseValidator(committed)).not.toThrow();
  });
});
