import { sqlStatement } from '@cpc/database';

/** The statements of a role's deletion beyond what the TypeORM repositories read and write. */

/** Users and live API keys that have the role: while there are any, it cannot be deleted. */
export const countRoleHolders = sqlStatement<{ roleUuid: string }, { holders: string }>({
  name: 'roles.count-holders',
  parameters: ['roleUuid'],
  sql: `SELECT (SELECT count(*) FROM auth.users WHERE role_uuid = :roleUuid)
          + (SELECT count(*) FROM auth.api_keys WHERE role_uuid = :roleUuid AND revoked_at IS NULL) AS holders`,
});

/** Revoked keys keep their role until the role goes; they can never be used again, and the audit log keeps them. */
export const deleteRevokedKeysOfRole = sqlStatement<{ roleUuid: string }>({
  name: 'roles.delete-revoked-keys',
  parameters: ['roleUuid'],
  sql: `DELETE FROM auth.api_keys WHERE role_uuid = :roleUuid AND revoked_at IS NOT NULL`,
});

/** For the SQL snapshots. */
export const ROLES_STATEMENTS = [countRoleHolders, deleteRevokedKeysOfRole];
