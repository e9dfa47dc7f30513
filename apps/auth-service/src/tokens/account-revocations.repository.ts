import { sqlStatement } from '@cpc/database';

/**
 * The statements of auth.account_revocations: per account, the earliest `iat` its access tokens may carry, with a
 * sequence and change time that api-gateways page through; and the accounts a change revokes.
 */

/** Users and live API keys that have the role. */
export const accountsHoldingRole = sqlStatement<{ roleUuid: string }, { uuid: string }>({
  name: 'account-revocations.holders-of-role',
  parameters: ['roleUuid'],
  sql: `SELECT uuid FROM auth.users WHERE role_uuid = :roleUuid
       UNION ALL SELECT uuid FROM auth.api_keys WHERE role_uuid = :roleUuid AND revoked_at IS NULL`,
});

/** Every user and live API key of the tenant: a disabled tenant's accounts all lose their tokens. */
export const accountsInTenant = sqlStatement<{ tenantUuid: string }, { uuid: string }>({
  name: 'account-revocations.accounts-of-tenant',
  parameters: ['tenantUuid'],
  sql: `SELECT uuid FROM auth.users WHERE tenant_uuid = :tenantUuid
       UNION ALL SELECT uuid FROM auth.api_keys WHERE tenant_uuid = :tenantUuid AND revoked_at IS NULL`,
});

/** The account's revocation in force, if any (not_before in epoch seconds). */
export const notBeforeOfAccount = sqlStatement<{ accountUuid: string }, { not_before: string }>({
  name: 'account-revocations.not-before',
  parameters: ['accountUuid'],
  sql: `SELECT not_before FROM auth.account_revocations WHERE account_uuid = :accountUuid`,
});

/** The instant a page of revocations is read as of (read before the page). */
export const revocationsAsOf = sqlStatement<Record<never, never>, { as_of: Date }>({
  name: 'account-revocations.as-of',
  parameters: [],
  sql: `SELECT now() AS as_of`,
});

/**
 * Revocations changed since `changedSince` (null: all) after `afterSequence`, in sequence order, leaving out those
 * older than the retention.
 */
export const revocationsPage = sqlStatement<
  { changedSince: string | null; afterSequence: number; retentionSeconds: number; limit: number },
  { account_uuid: string; not_before: string; sequence: string }
>({
  name: 'account-revocations.page',
  parameters: ['changedSince', 'afterSequence', 'retentionSeconds', 'limit'],
  sql: `SELECT account_uuid, not_before, sequence FROM auth.account_revocations
       WHERE (:changedSince::timestamptz IS NULL OR changed_at >= :changedSince::timestamptz)
         AND sequence > :afterSequence
         AND not_before >= floor(extract(epoch FROM now()))::bigint - :retentionSeconds
       ORDER BY sequence LIMIT :limit`,
});

/** Ends the accounts' refresh-token families. */
export const revokeRefreshTokens = sqlStatement<{ accountUuids: string[] }>({
  name: 'account-revocations.revoke-refresh-tokens',
  parameters: ['accountUuids'],
  sql: `UPDATE auth.refresh_tokens SET revoked_at = now()
         WHERE account_uuid = ANY(:accountUuids::uuid[]) AND revoked_at IS NULL`,
});

/**
 * Tokens issued up to the current second are refused (not_before is the next second): `iat` counts whole seconds,
 * and auth-service gives tokens issued later an `iat` of at least not_before. clock_timestamp(), not the
 * transaction's start, so that tokens issued while the change ran are refused too. A revocation already in force at
 * or past that second moves one second on: tokens issued since the previous change carry its not_before as `iat`.
 */
export const recordRevocations = sqlStatement<
  { accountUuids: string[]; tenantUuid: string },
  { account_uuid: string; not_before: string }
>({
  name: 'account-revocations.record',
  parameters: ['accountUuids', 'tenantUuid'],
  sql: `INSERT INTO auth.account_revocations AS revocation (account_uuid, tenant_uuid, not_before)
       SELECT account_uuid, :tenantUuid, floor(extract(epoch FROM clock_timestamp()))::bigint + 1
       FROM unnest(:accountUuids::uuid[]) AS account_uuid
       ON CONFLICT (account_uuid) DO UPDATE SET
         not_before = GREATEST(revocation.not_before + 1, EXCLUDED.not_before),
         sequence = nextval('auth.account_revocation_sequence'),
         changed_at = now()
       RETURNING account_uuid, not_before`,
});

/** Revocations past the retention: no access token they refuse is still alive. */
export const deleteExpiredRevocations = sqlStatement<{ retentionSeconds: number }>({
  name: 'account-revocations.delete-expired',
  parameters: ['retentionSeconds'],
  sql: `DELETE FROM auth.account_revocations
         WHERE not_before < floor(extract(epoch FROM now()))::bigint - :retentionSeconds`,
});

/** For the SQL snapshots. */
export const ACCOUNT_REVOCATIONS_STATEMENTS = [
  accountsHoldingRole,
  accountsInTenant,
  notBeforeOfAccount,
  revocationsAsOf,
  revocationsPage,
  revokeRefreshTokens,
  recordRevocations,
  deleteExpiredRevocations,
];
