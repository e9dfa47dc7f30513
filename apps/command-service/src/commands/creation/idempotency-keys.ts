import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** How long a key stands for its first request. */
export const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;

export interface StoredIdempotencyKey {
  request_fingerprint: string;
  command_uuid: string;
}

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
  const [row] = await manager.query<StoredIdempotencyKey[]>(
    `SELECT request_fingerprint, command_uuid FROM control.command_idempotency_keys
      WHERE tenant_uuid = $1 AND idempotency_key = $2 AND expires_at > now()`,
    [tenantUuid, key],
  );
  return row;
}

/**
 * The statement taking the key for a new command, for a CTE of the statement creating it (placeholders name its
 * values); it returns a row when the key was taken, none when another request holds it. The primary key (tenant,
 * key) makes a concurrent duplicate wait here until the first request's statement ends; it then finds the key taken.
 * An expired key is taken over.
 */
export function claimKeySql(placeholders: {
  tenantUuid: string;
  key: string;
  fingerprint: string;
  commandUuid: string;
}): string {
  const { tenantUuid, key, fingerprint, commandUuid } = placeholders;
  return `INSERT INTO control.command_idempotency_keys AS k
                 (tenant_uuid, idempotency_key, request_fingerprint, command_uuid, expires_at)
          VALUES (${tenantUuid}, ${key}, ${fingerprint}, ${commandUuid},
                  now() + make_interval(hours => ${IDEMPOTENCY_KEY_LIFETIME_HOURS}))
          ON CONFLICT (tenant_uuid, idempotency_key) DO UPDATE SET
            request_fingerprint = EXCLUDED.request_fingerprint,
            command_uuid = EXCLUDED.command_uuid,
            expires_at = EXCLUDED.expires_at
          WHERE k.expires_at <= now()
          RETURNING 1`;
}

/** Expired keys are only kept until the sweep; a live one is never removed. */
export async function deleteExpiredKeys(manager: EntityManager): Promise<void> {
  await manager.query(`DELETE FROM control.command_idempotency_keys WHERE expires_at <= now()`);
}
