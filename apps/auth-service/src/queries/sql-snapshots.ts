import type { RepositoryStatements, ServiceSqlSnapshots } from '@cpc/database';
import { ADMIN_CHANGES_STATEMENTS } from '../admin/admin-changes.repository.js';
import { API_KEYS_STATEMENTS } from '../api-keys/api-keys.repository.js';
import { AUDIT_EVENTS_STATEMENTS } from '../audit/audit-events.repository.js';
import { SECRET_HASHES_STATEMENTS } from '../credentials/secret-hashes.repository.js';
import { TOKEN_LIMITS_STATEMENTS } from '../credentials/token-limits.repository.js';
import { ROLES_STATEMENTS } from '../roles/roles.repository.js';
import { ACCOUNT_REVOCATIONS_STATEMENTS } from '../tokens/account-revocations.repository.js';

/** The repositories sit beside their features: `feature` is the folder under src. */
const repository = (
  feature: string,
  name: string,
  statements: RepositoryStatements['statements'],
): RepositoryStatements => ({
  repository: name,
  source: `apps/auth-service/src/${feature}/${name}.repository.ts`,
  statements,
});

/** Every statement of auth-service, a snapshot per repository. */
export const AUTH_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'auth-service',
  directory: 'apps/auth-service/src/queries',
  repositories: [
    repository('admin', 'admin-changes', ADMIN_CHANGES_STATEMENTS),
    repository('api-keys', 'api-keys', API_KEYS_STATEMENTS),
    repository('audit', 'audit-events', AUDIT_EVENTS_STATEMENTS),
    repository('credentials', 'secret-hashes', SECRET_HASHES_STATEMENTS),
    repository('credentials', 'token-limits', TOKEN_LIMITS_STATEMENTS),
    repository('roles', 'roles', ROLES_STATEMENTS),
    repository('tokens', 'account-revocations', ACCOUNT_REVOCATIONS_STATEMENTS),
  ],
};
