import { sqlStatement } from '@cpc/database';

/**
 * The account a token pair is about to be issued for, with its tenant and role, locked until the pair is committed,
 * while it may still log in: a change of any of them (a new secret, a disable, a revoked key, another role, a role's
 * new permissions, a tenant disable) that committed before is seen here and ends the grant; one that comes after waits
 * for the pair's commit, and then revokes it with the rest of the account's tokens.
 *
 * Lock order: the account first, in a statement of its own, then tenant and role. An administrative change locks the
 * tenant (FOR NO KEY UPDATE, which FOR KEY SHARE lets through) and then the account or role, and a tenant disable locks
 * the tenant only (FOR UPDATE), so a grant waiting for an account never holds what such a change waits for.
 */

interface IssuingAccount {
  tenantUuid: string;
  uuid: string;
}

interface LiveAccount {
  role_uuid: string;
  secret_hash: string;
}

/** The user, enabled, with its role and password hash now. */
export const lockIssuingUser = sqlStatement<IssuingAccount, LiveAccount>({
  name: 'issuing-accounts.lock-user',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT role_uuid, password_hash AS secret_hash FROM auth.users
         WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND disabled_at IS NULL
           FOR SHARE`,
});

/** The API key, not revoked, with its role and secret hash now. */
export const lockIssuingApiKey = sqlStatement<IssuingAccount, LiveAccount>({
  name: 'issuing-accounts.lock-api-key',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT role_uuid, secret_hash FROM auth.api_keys
         WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND revoked_at IS NULL
           FOR SHARE`,
});

/**
 * The tenant, not disabled, and the permissions of the role now, after the account is locked. FOR KEY SHARE of the
 * tenant waits only for a disable (FOR UPDATE), not for the other changes of the tenant.
 */
export const lockIssuingTenantAndRole = sqlStatement<
  { tenantUuid: string; roleUuid: string },
  { tenant_slug: string; permissions: string[] }
>({
  name: 'issuing-accounts.lock-tenant-and-role',
  parameters: ['tenantUuid', 'roleUuid'],
  sql: `SELECT tenant.slug AS tenant_slug, role.permissions
          FROM auth.tenants AS tenant JOIN auth.roles AS role ON role.tenant_uuid = tenant.uuid
         WHERE tenant.uuid = :tenantUuid AND tenant.disabled_at IS NULL AND role.uuid = :roleUuid
           FOR KEY SHARE OF tenant FOR SHARE OF role`,
});

/** For the SQL snapshots. */
export const ISSUING_ACCOUNTS_STATEMENTS = [lockIssuingUser, lockIssuingApiKey, lockIssuingTenantAndRole];
