import { sqlStatement } from '@cpc/database';

/** The statements every administrative change runs around its own: the tenant's lock and the checks of its actor. */

/** Serializes a tenant's administrative changes: the row lock every one of them takes first. */
export const lockTenantForChange = sqlStatement<{ tenantUuid: string }>({
  name: 'admin-changes.lock-tenant',
  parameters: ['tenantUuid'],
  sql: `SELECT uuid FROM auth.tenants WHERE uuid = :tenantUuid FOR NO KEY UPDATE`,
});

/** Enabled users whose role holds `*`. */
export const countSuperAdmins = sqlStatement<{ tenantUuid: string }, { holders: string }>({
  name: 'admin-changes.count-super-admins',
  parameters: ['tenantUuid'],
  sql: `SELECT count(*) AS holders FROM auth.users AS account JOIN auth.roles AS role ON role.uuid = account.role_uuid
        WHERE account.tenant_uuid = :tenantUuid AND account.disabled_at IS NULL AND '*' = ANY (role.permissions)`,
});

/** The account that acts through the admin API, as the audit log names it. */
export const actingAccountName = sqlStatement<{ tenantUuid: string; uuid: string }, { name: string }>({
  name: 'admin-changes.acting-account-name',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT email AS name FROM auth.users WHERE tenant_uuid = :tenantUuid AND uuid = :uuid
        UNION ALL SELECT public_key FROM auth.api_keys WHERE tenant_uuid = :tenantUuid AND uuid = :uuid`,
});

/** For the SQL snapshots. */
export const ADMIN_CHANGES_STATEMENTS = [lockTenantForChange, countSuperAdmins, actingAccountName];
