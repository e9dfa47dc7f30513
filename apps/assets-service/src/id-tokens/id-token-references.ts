import { randomUUID } from 'node:crypto';
import type { CreateIdTokenPayload, ValidationIssue } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';
import type { EntityManager } from 'typeorm';
import { findIdTokensByKey, findTenantLocations, type IdTokenWriteRow } from './id-tokens.repository.js';

/** How a field of the i-th token is named in a validation issue: `group_id_token`, or `id_tokens[3].group_id_token`. */
export type ParameterName = (index: number, field: string) => string;

const keyOf = (token: { id_token: string; type: string }) =>
  `${token.type}\u0000${token.id_token.toLowerCase()}`;

export interface ResolveOptions {
  /** The uuid of a token not known yet. */
  uuidOfNew?: () => string;
  /** Locations not checked: those a token being changed has already (one deleted since stays on it). */
  checkedAlready?: ReadonlySet<string>;
}

/**
 * The rows to write for tokens of one tenant: each keeps the uuid of the known token with its value and type (else
 * `uuid` for a single create, or a new one), its group resolved among the tenant's tokens and the batch itself, its
 * locations checked. Every problem of every token is reported at once; nothing is written here.
 */
export async function resolveIdTokens(
  manager: EntityManager,
  tenantUuid: string,
  tokens: CreateIdTokenPayload[],
  parameter: ParameterName,
  { uuidOfNew = randomUUID, checkedAlready = new Set<string>() }: ResolveOptions = {},
): Promise<{ rows: IdTokenWriteRow[]; known: Set<string> }> {
  const issues: ValidationIssue[] = [];
  const batch = new Map<string, number>();
  tokens.forEach((token, index) => {
    const key = keyOf(token);
    if (batch.has(key)) {
      issues.push({
        parameter: parameter(index, 'id_token'),
        errorKey: 'duplicate',
        message: `the same id_token and type as the token at index ${batch.get(key)}`,
      });
    } else batch.set(key, index);
  });
  const keys = [
    ...tokens.map((token) => ({ id_token: token.id_token, type: token.type })),
    ...tokens.flatMap((token) => (token.group_id_token ? [token.group_id_token] : [])),
  ];
  const found = await runStatement(manager, findIdTokensByKey, {
    tenantUuid,
    keys: JSON.stringify(keys.map((key, key_index) => ({ key_index, ...key }))),
  });
  const uuidByKey = new Map(found.map((row) => [keyOf(keys[row.key_index]), row.uuid]));
  const known = new Set(tokens.filter((token) => uuidByKey.has(keyOf(token))).map(keyOf));
  for (const token of tokens) {
    if (!uuidByKey.has(keyOf(token))) uuidByKey.set(keyOf(token), uuidOfNew());
  }
  const locations = [...new Set(tokens.flatMap((token) => token.allowed_location_uuids ?? []))].filter(
    (uuid) => !checkedAlready.has(uuid),
  );
  const existing =
    locations.length === 0
      ? new Set<string>()
      : new Set(
          (await runStatement(manager, findTenantLocations, { tenantUuid, uuids: locations })).map(
            (row) => row.uuid,
          ),
        );
  const rows = tokens.map((token, index): IdTokenWriteRow => {
    const group = token.group_id_token;
    const groupUuid = group ? uuidByKey.get(keyOf(group)) : null;
    if (group && !groupUuid) {
      issues.push({
        parameter: parameter(index, 'group_id_token'),
        errorKey: 'not_found',
        message: `no id token ${group.id_token} of type ${group.type}; create it first or import it with this one`,
      });
    }
    const allowed = [...new Set(token.allowed_location_uuids ?? [])];
    const unknown = allowed.filter((uuid) => !existing.has(uuid) && !checkedAlready.has(uuid));
    if (unknown.length > 0) {
      issues.push({
        parameter: parameter(index, 'allowed_location_uuids'),
        errorKey: 'not_found',
        message: `unknown location ${unknown.join(', ')}`,
      });
    }
    return {
      uuid: uuidByKey.get(keyOf(token))!,
      id_token: token.id_token,
      type: token.type,
      status: token.status ?? 'accepted',
      expires_at: token.expires_at ?? null,
      group_uuid: groupUuid ?? null,
      contract_reference: token.contract_reference ?? null,
      allowed_location_uuids: allowed,
    };
  });
  if (issues.length > 0) throw new ValidationFailedError(issues);
  return { rows, known };
}

export { keyOf as idTokenKeyOf };
