import type { ValidationIssue } from './error-codes.js';

/** The textual form of every `uuid` field and path parameter: any version, either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * errorKey of every malformed UUID, wherever it is sent: a path parameter, a `filter[...]` of the query, a field of
 * the body (at any depth), or the token request's `uuid`. Every service and the api-gateway report it through
 * invalidUuidIssue, so a client meets one key.
 */
export const INVALID_UUID_ERROR_KEY = 'invalid_uuid';

/** The validation issue of a malformed UUID on `parameter`. */
export function invalidUuidIssue(
  parameter: string,
  message = `${parameter} must be a UUID`,
): ValidationIssue {
  return { errorKey: INVALID_UUID_ERROR_KEY, message, parameter };
}
