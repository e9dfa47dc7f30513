import { sqlStatement } from '@cpc/database';

/** The statements of auth.refresh_tokens beyond what its TypeORM repository reads and writes. */

/**
 * Marks the token used if it may be used: not used, not revoked, not expired, and no token of its family revoked.
 * Using a token sets used_at only; revoked_at is set by a revocation, of the family (reuse) or of the account, and
 * that one UPDATE cannot see a successor that a refresh in flight has not committed yet. It always revokes a token
 * of the family it saw though (the one that refresh used, once it committed), so the successor is refused here.
 */
export const consumeRefreshToken = sqlStatement<
  { tokenHash: string },
  {
    family_uuid: string;
    tenant_uuid: string;
    account_kind: string;
    account_uuid: string;
    context: string;
    data_uuid: string | null;
    scope: string | null;
  }
>({
  name: 'refresh-tokens.consume',
  parameters: ['tokenHash'],
  sql: `UPDATE auth.refresh_tokens AS token SET used_at = now()
         WHERE token.token_hash = :tokenHash AND token.used_at IS NULL AND token.revoked_at IS NULL
           AND token.expires_at > now()
           AND NOT EXISTS (SELECT 1 FROM auth.refresh_tokens AS sibling
                            WHERE sibling.family_uuid = token.family_uuid AND sibling.revoked_at IS NOT NULL)
     RETURNING token.family_uuid, token.tenant_uuid, token.account_kind, token.account_uuid, token.context,
               token.data_uuid, token.scope`,
});

/** For the SQL snapshots. */
export const REFRESH_TOKENS_STATEMENTS = [consumeRefreshToken];
