import { createRequire } from 'node:module';
import type { OcppProtocol } from '@cpc/contracts';
import { describeError } from '@cpc/errors';

/**
 * Test support (not exported by the lib): the official OCPP JSON schemas shipped with ocpp-rpc, loaded exactly as
 * ocpp-rpc's strict mode loads them (`createValidator`, which also relaxes `multipleOf` for floats). Schema ids are
 * `urn:<Action>.req` for calls and `urn:<Action>.conf` for replies, on both protocols.
 */
const require = createRequire(import.meta.url);
const { createValidator } = require('ocpp-rpc') as typeof import('ocpp-rpc');

const SCHEMA_FILES: Record<OcppProtocol, string> = {
  'ocpp1.6': 'ocpp-rpc/lib/schemas/ocpp1_6.json',
  'ocpp2.0.1': 'ocpp-rpc/lib/schemas/ocpp2_0_1.json',
};

const validators = new Map(
  (Object.keys(SCHEMA_FILES) as OcppProtocol[]).map((protocol) => [
    protocol,
    createValidator(protocol, require(SCHEMA_FILES[protocol]) as object[]),
  ]),
);

/** Why `payload` fails the schema `urn:<action>.<kind>` of `protocol`, or undefined when it passes. */
export function schemaViolation(
  protocol: OcppProtocol,
  action: string,
  kind: 'req' | 'conf',
  payload: unknown,
): string | undefined {
  const validator = validators.get(protocol);
  const schemaId = `urn:${action}.${kind}`;
  if (!validator?._ajv.getSchema(schemaId)) throw new Error(`no schema ${schemaId} for ${protocol}`);
  try {
    // Throws an RPCError naming the violation; the OCPP schemas are synchronous, so anything but `true` is a failure.
    return validator.validate(schemaId, payload) === true ? undefined : `${schemaId} did not validate`;
  } catch (error) {
    return describeError(error);
  }
}

interface StatusSchema {
  enum?: string[];
  $ref?: string;
}
interface ConfSchema {
  properties?: { status?: StatusSchema };
  definitions?: Record<string, StatusSchema>;
}

/** The values the `status` of the reply `urn:<action>.conf` may take, as the schema lists them. */
export function replyStatusValues(protocol: OcppProtocol, action: string): string[] {
  const schema = validators.get(protocol)?._ajv.getSchema(`urn:${action}.conf`)?.schema as
    ConfSchema | undefined;
  const status = schema?.properties?.status;
  const resolved = status?.$ref ? schema?.definitions?.[status.$ref.replace('#/definitions/', '')] : status;
  if (!resolved?.enum) throw new Error(`urn:${action}.conf of ${protocol} has no status enum`);
  return resolved.enum;
}
