import { createHash } from 'node:crypto';
import { runStatement } from '@cpc/database';
import type { EntityManager } from 'typeorm';
import {
  deleteExpiredIdempotencyKeys,
  findLiveIdempotencyKey,
  type StoredIdempotencyKey,
} from '../../repositories/idempotency-keys.repository.js';

/** JSON with object keys sorted at every depth, so the same body written in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  // undefined (no body at all) has no JSON form; it fingerprints like null.
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the body as received (canonical JSON): the same key with another body is refused. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The key's first request, while the key lives. */
export async function findLiveKey(
  manager: EntityManager,
  tenantUuid: string,
  key: string,
): Promise<StoredIdempotencyKey | undefined> {
  const [row] = await runStatement(manager, findLiveIdempotencyKey, { tenantUuid, key });
  return row;
}

/** Expired keys are only kept until the sweep; a live one is never removed. */
export async function deleteExpiredKeys(manager: EntityManager): Promise<void> {
  await runStatement(manager, deleteExpiredIdempotencyKeys, {});
}
