import { sqlStatement } from '@cpc/database';

/** The statements of control.command_idempotency_keys: a key's first request, while the key lives. */

/** How long a key stands for its first request. */
export const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;

/** What a key stands for. */
export interface StoredIdempotencyKey {
  request_fingerprint: string;
  command_uuid: string;
}

/** The key's first request, while the key lives. */
export const findLiveIdempotencyKey = sqlStatement<{ tenantUuid: string; key: string }, StoredIdempotencyKey>(
  {
    name: 'idempotency-keys.find-live',
    parameters: ['tenantUuid', 'key'],
    sql: `SELECT request_fingerprint, command_uuid FROM control.command_idempotency_keys
      WHERE tenant_uuid = :tenantUuid AND idempotency_key = :key AND expires_at > now()`,
  },
);

/**
 * The statement taking the key for a new command, for a CTE of the statement creating it (the expressions name its
 * values: named parameters of that statement); it returns a row when the key was taken, none when another request
 * holds it. The primary key (tenant, key) makes a concurrent duplicate wait here until the first request's statement
 * ends; it then finds the key taken. An expired key is taken over.
 */
export function claimIdempotencyKeySql(expressions: {
  tenantUuid: string;
  key: string;
  fingerprint: string;
  commandUuid: string;
}): string {
  const { tenantUuid, key, fingerprint, commandUuid } = expressions;
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
export const deleteExpiredIdempotencyKeys = sqlStatement({
  name: 'idempotency-keys.delete-expired',
  parameters: [],
  sql: `DELETE FROM control.command_idempotency_keys WHERE expires_at <= now()`,
});

/** For the SQL snapshots (the claim is part of commands.create-with-key). */
export const IDEMPOTENCY_KEYS_STATEMENTS = [findLiveIdempotencyKey, deleteExpiredIdempotencyKeys];
