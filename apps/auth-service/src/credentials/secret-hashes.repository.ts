import { sqlStatement } from '@cpc/database';

/**
 * The stored secret hashes of the two account kinds (auth.users.password_hash, auth.api_keys.secret_hash), a
 * statement per kind.
 */

interface HashReplacement {
  uuid: string;
  /** The hash the login verified: a hash set since then is kept. */
  verifiedHash: string;
  replacement: string;
}

/** Replaces a user's password hash only if it is still the stored one (a password set meanwhile wins). */
export const replaceUserPasswordHash = sqlStatement<HashReplacement>({
  name: 'secret-hashes.replace-user-password-hash',
  parameters: ['replacement', 'uuid', 'verifiedHash'],
  sql: `UPDATE auth.users SET password_hash = :replacement WHERE uuid = :uuid AND password_hash = :verifiedHash`,
});

/** Replaces an API key's secret hash only if it is still the stored one. */
export const replaceApiKeySecretHash = sqlStatement<HashReplacement>({
  name: 'secret-hashes.replace-api-key-secret-hash',
  parameters: ['replacement', 'uuid', 'verifiedHash'],
  sql: `UPDATE auth.api_keys SET secret_hash = :replacement WHERE uuid = :uuid AND secret_hash = :verifiedHash`,
});

/** For the SQL snapshots. */
export const SECRET_HASHES_STATEMENTS = [replaceUserPasswordHash, replaceApiKeySecretHash];
