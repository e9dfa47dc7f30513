import type { ServiceSqlSnapshots } from '@cpc/database';
import { ADMIN_CHANGES_STATEMENTS } from '../admin/admin-changes.repository.js';
import { API_KEYS_STATEMENTS } from '../api-keys/api-keys.repository.js';
import { AUDIT_EVENTS_STATEMENTS } from '../audit/audit-events.repository.js';
import { ISSUING_ACCOUNTS_STATEMENTS } from '../credentials/issuing-accounts.repository.js';
import { SECRET_HASHES_STATEMENTS } from '../credentials/secret-hashes.repository.js';
import { TOKEN_LIMITS_STATEMENTS } from '../credentials/token-limits.repository.js';
import { ROLES_STATEMENTS } from '../roles/roles.repository.js';
import { ACCOUNT_REVOCATIONS_STATEMENTS } from '../tokens/account-revocations.repository.js';
import { REFRESH_TOKENS_STATEMENTS } from '../tokens/refresh-tokens.repository.js';

/** Every statement of auth-service, a snapshot per repository. */
export const AUTH_SERVICE_SQL: ServiceSqlSnapshots = {
  service: 'auth-service',
  repositories: {
    'admin/admin-changes': ADMIN_CHANGES_STATEMENTS,
    'api-keys/api-keys': API_KEYS_STATEMENTS,
    'audit/audit-events': AUDIT_EVENTS_STATEMENTS,
    'credentials/issuing-accounts': ISSUING_ACCOUNTS_STATEMENTS,
    'credentials/secret-hashes': SECRET_HASHES_STATEMENTS,
    'credentials/token-limits': TOKEN_LIMITS_STATEMENTS,
    'roles/roles': ROLES_STATEMENTS,
    'tokens/account-revocations': ACCOUNT_REVOCATIONS_STATEMENTS,
    'tokens/refresh-tokens': REFRESH_TOKENS_STATEMENTS,
  },
};
