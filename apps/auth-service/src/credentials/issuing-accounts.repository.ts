import { sqlStatement } from '@cpc/database';

/**
 * The account a token pair is about to be issued for, locked until the pair is committed, while it may still log in:
 * a revocation of it (a disable, a revoked key, a deletion) that was under way while the credentials were checked has
 * committed by then, and the login is refused instead of outliving it.
 */

interface IssuingAccount {
  tenantUuid: string;
  uuid: string;
}

/** The user, enabled, with its role now. */
export const lockIssuingUser = sqlStatement<IssuingAccount, { role_uuid: string }>({
  name: 'issuing-accounts.lock-user',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT role_uuid FROM auth.users
         WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND disabled_at IS NULL
           FOR SHARE`,
});

/** The API key, not revoked, with its role now. */
export const lockIssuingApiKey = sqlStatement<IssuingAccount, { role_uuid: string }>({
  name: 'issuing-accounts.lock-api-key',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT role_uuid FROM auth.api_keys
         WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND revoked_at IS NULL
           FOR SHARE`,
});

/** For the SQL snapshots. */
export const ISSUING_ACCOUNTS_STATEMENTS = [lockIssuingUser, lockIssuingApiKey];
