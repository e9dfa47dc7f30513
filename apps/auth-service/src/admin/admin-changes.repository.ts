import { sqlStatement } from '@cpc/database';

/** The statements every administrative change runs around its own: the tenant's lock and the checks of its actor. */

/** Serializes a tenant's administrative changes: the row lock every one of them takes first. */
export const lockTenantForChange = sqlStatement<{ tenantUuid: string }>({
  name: 'admin-changes.lock-tenant',
  parameters: ['tenantUuid'],
  sql: `SELECT uuid FROM auth.tenants WHERE uuid = :tenantUuid FOR NO KEY UPDATE`,
});

/**
 * The tenant lock of a disable: also waits for the token grants under way in the tenant, which hold its row FOR KEY
 * SHARE (issuing-accounts.repository.ts), and makes those that come later wait and see it disabled.
 */
export const lockTenantForDisable = sqlStatement<{ tenantUuid: string }>({
  name: 'admin-changes.lock-tenant-for-disable',
  parameters: ['tenantUuid'],
  sql: `SELECT uuid FROM auth.tenants WHERE uuid = :tenantUuid FOR UPDATE`,
});

/** Enabled users whose role holds `*`. */
export const countSuperAdmins = sqlStatement<{ tenantUuid: string }, { holders: string }>({
  name: 'admin-changes.count-super-admins',
  parameters: ['tenantUuid'],
  sql: `SELECT count(*) AS holders FROM auth.users AS account JOIN auth.roles AS role ON role.uuid = account.role_uuid
        WHERE account.tenant_uuid = :tenantUuid AND account.disabled_at IS NULL AND '*' = ANY (role.permissions)`,
});

/**
 * The account that acts through the admin API, as the audit log names it, while it may act: a user not disabled, an
 * API key not revoked (its tokens are refused by api-gateway once the revocation reaches it, a moment later).
 */
export const actingAccountName = sqlStatement<{ tenantUuid: string; uuid: string }, { name: string }>({
  name: 'admin-changes.acting-account-name',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT email AS name FROM auth.users WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND disabled_at IS NULL
        UNION ALL SELECT public_key FROM auth.api_keys
                   WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND revoked_at IS NULL`,
});

/** The acting account if it may not act any more: a user disabled or an API key revoked. */
export const disabledActingAccount = sqlStatement<{ tenantUuid: string; uuid: string }, { uuid: string }>({
  name: 'admin-changes.disabled-acting-account',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT uuid FROM auth.users WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND disabled_at IS NOT NULL
        UNION ALL SELECT uuid FROM auth.api_keys
                   WHERE tenant_uuid = :tenantUuid AND uuid = :uuid AND revoked_at IS NOT NULL`,
});

/** For the SQL snapshots. */
export const ADMIN_CHANGES_STATEMENTS = [
  lockTenantForChange,
  lockTenantForDisable,
  countSuperAdmins,
  actingAccountName,
  disabledActingAccount,
];
