import type { FastifyInstance } from 'fastify';
import { leaveOutUnsetFields } from '@cpc/contracts';

/**
 * JSON of a response body without the properties that are null: an unset optional field is left out rather than sent
 * as null, which the specification's types (string, integer) do not allow and strict generated clients reject. Nulls
 * inside arrays stay (they hold a place). Issue 25; the OpenAPI document marks every such field optional.
 */
export function stringifyWithoutUnset(payload: unknown): string {
  if (payload === null || payload === undefined) return 'null';
  return JSON.stringify(payload, leaveOutUnsetFields);
}

/** Every JSON answer of the API is serialized by stringifyWithoutUnset. */
export function omitUnsetFields(fastify: FastifyInstance): void {
  fastify.setReplySerializer((payload) => stringifyWithoutUnset(payload));
}
