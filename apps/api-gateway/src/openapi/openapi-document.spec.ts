import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { resolve } from 'node:path';
import {
  COMMAND_TARGET_TYPES,
  COMMAND_TYPES,
  type CommandType,
  validateCommandRequest,
} from '@cpc/ocpp-commands';
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

/** A valid body per type, with every parameter the type has where possible. */
const VALID_PARAMETERS: Record<CommandType, Record<string, unknown>> = {
  soft_reset: {},
  hard_reset: {},
  clear_cache: {},
  unlock: {},
  identify: {},
  remote_stop: {},
  get_local_list_version: {},
  send_local_list: {
    update_type: 'differential',
    id_token_uuids: ['0b7f3b4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b'],
    full_on_version_mismatch: true,
  },
  change_availability: { availability: 'inoperative' },
  update_firmware: {
    location: 'https://firmware.example/cp-2.1.bin',
    retrieve_at: '2030-01-01T00:00:00Z',
    retries: 3,
    retry_interval: 60,
    install_at: '2030-01-01T01:00:00+01:00',
  },
  request_diagnostics: {
    location: 'ftp://logs.example/upload',
    start_time: '2025-01-01T00:00:00Z',
    stop_time: '2025-01-02T00:00:00Z',
    retries: 1,
    retry_interval: 10,
  },
  refresh_configuration: { keys: ['HeartbeatInterval', 'MeterValueSampleInterval'] },
  remote_start: {
    id_tag: 'TAG-0001',
    charging_profile: {
      id: 1,
      stack_level: 0,
      purpose: 'tx_profile',
      kind: 'relative',
      schedule: {
        charging_rate_unit: 'A',
        periods: [{ start_period: 0, limit: 16.5, number_phases: 3 }],
        duration: 3600,
        min_charging_rate: 6,
      },
    },
  },
  reserve: { id_tag: 'TAG-0001', expires_at: '2099-01-01T00:00:00Z', reservation_id: 7 },
  cancel_reservation: { reservation_id: 7 },
  set_charging_profile: {
    charging_profile: {
      id: 2,
      stack_level: 1,
      purpose: 'tx_default_profile',
      kind: 'recurring',
      recurrency_kind: 'daily',
      valid_from: '2025-01-01T00:00:00Z',
      valid_to: '2026-01-01T00:00:00Z',
      schedule: {
        charging_rate_unit: 'W',
        start_schedule: '2025-01-01T00:00:00Z',
        periods: [
          { start_period: 0, limit: 11000 },
          { start_period: 3600, limit: 7400 },
        ],
      },
    },
  },
  clear_charging_profile: { id: 2, purpose: 'tx_default_profile', stack_level: 1 },
  change_configuration: {
    settings: [
      {
        component: 'EVSE',
        component_instance: 'main',
        evse_id: 1,
        connector_id: 1,
        variable: 'Power',
        variable_instance: 'L1',
        attribute_type: 'MaxSet',
        value: '11000',
      },
    ],
  },
  trigger_message: { message: 'meter_values' },
};

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

  describe('as a JSON schema of the create-command body', () => {
    const validatorOf = () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
      ajv.addSchema({ $id: 'openapi.json', components: document.components });
      return ajv.compile({ $ref: `openapi.json#/components/schemas/${CREATE_COMMAND_REQUEST_SCHEMA}` });
    };
    const body = (type: CommandType, parameters: Record<string, unknown>) => ({
      type,
      target_type: COMMAND_TARGET_TYPES[type][0],
      target_uuid: '6f1c2a9e-3b7d-4e3a-9c51-0d2f8b7a6e14',
      parameters,
      valid_for_seconds: 60,
    });

    it.each(COMMAND_TYPES)('accepts what the parser accepts: %s', (type) => {
      const validate = validatorOf();
      const request = body(type, VALID_PARAMETERS[type]);
      expect(validateCommandRequest(request)).toEqual([]);
      expect(validate(request) ? [] : validate.errors).toEqual([]);
    });

    it('refuses what the parser refuses: an unknown parameter, a target type the type cannot address', () => {
      const validate = validatorOf();
      const unknownParameter = body('unlock', { force: true });
      const wrongTarget = { ...body('unlock', {}), target_type: 'controller' };
      const missingParameter = body('reserve', { id_tag: 'TAG-0001' });
      for (const request of [unknownParameter, wrongTarget, missingParameter]) {
        expect(validateCommandRequest(request)).not.toEqual([]);
        expect(validate(request)).toBe(false);
      }
    });
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
