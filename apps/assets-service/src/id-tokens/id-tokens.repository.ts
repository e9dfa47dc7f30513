import { sqlStatement } from '@cpc/database';
import type { IdTokenStatus, IdTokenType } from '@cpc/contracts';
import { INSERT_STAMP_SQL } from '../shared/asset-inserts.repository.js';

/**
 * The statements of assets.id_tokens that go beyond one entity: the tenant's revision, the bulk write of an import or a
 * create, and the lookups its validation needs. Each runs inside the caller's transaction.
 */

/** Raises the tenant's revision and returns it; the row lock orders every writer of the tenant's tokens. */
export const raiseIdTokenRevision = sqlStatement<{ tenantUuid: string }, { revision: string }>({
  name: 'id-tokens.raise-revision',
  parameters: ['tenantUuid'],
  sql: `INSERT INTO assets.id_token_revisions AS r (tenant_uuid, revision) VALUES (:tenantUuid, 1)
        ON CONFLICT (tenant_uuid) DO UPDATE SET revision = r.revision + 1
        RETURNING revision`,
});

/** A token as one write carries it; `group_uuid` is resolved before. */
export interface IdTokenWriteRow {
  uuid: string;
  id_token: string;
  type: IdTokenType;
  status: IdTokenStatus;
  expires_at: string | null;
  group_uuid: string | null;
  contract_reference: string | null;
  allowed_location_uuids: string[];
}

/**
 * Writes tokens (a JSON array of IdTokenWriteRow): new ones are inserted under their uuid, a known value and type is
 * replaced (`replaceKnown`) or left alone (then it is missing from the rows returned). Rows are stamped with the
 * statement's start (INSERT_STAMP_SQL), after the transaction's mark (markAssetInsert), for the list's horizon; a row
 * of an earlier statement has an earlier created_at, which tells the rows created from those replaced.
 */
const writeTokensSql = (onConflict: string) => `
  INSERT INTO assets.id_tokens AS t (uuid, tenant_uuid, id_token, type, status, expires_at, group_uuid,
                                     contract_reference, allowed_location_uuids, revision, created_at, updated_at)
  SELECT x.uuid, :tenantUuid, x.id_token, x.type, x.status, x.expires_at, x.group_uuid, x.contract_reference,
         COALESCE(x.allowed_location_uuids, '{}'), :revision, ${INSERT_STAMP_SQL}, ${INSERT_STAMP_SQL}
    FROM jsonb_to_recordset(:tokens::jsonb) AS x(uuid uuid, id_token text, type text, status text,
         expires_at timestamptz, group_uuid uuid, contract_reference text, allowed_location_uuids uuid[])
  ${onConflict}
  RETURNING t.uuid, (t.created_at = ${INSERT_STAMP_SQL}) AS created`;

interface WriteTokensParams {
  tenantUuid: string;
  revision: string;
  tokens: string;
}

const WRITE_PARAMETERS = ['tenantUuid', 'revision', 'tokens'] as const;

export const insertIdTokens = sqlStatement<WriteTokensParams, { uuid: string; created: boolean }>({
  name: 'id-tokens.insert',
  parameters: WRITE_PARAMETERS,
  sql: writeTokensSql('ON CONFLICT (tenant_uuid, lower(id_token), type) DO NOTHING'),
});

export const upsertIdTokens = sqlStatement<WriteTokensParams, { uuid: string; created: boolean }>({
  name: 'id-tokens.upsert',
  parameters: WRITE_PARAMETERS,
  sql: writeTokensSql(`ON CONFLICT (tenant_uuid, lower(id_token), type) DO UPDATE SET
    status = EXCLUDED.status, expires_at = EXCLUDED.expires_at, group_uuid = EXCLUDED.group_uuid,
    contract_reference = EXCLUDED.contract_reference, allowed_location_uuids = EXCLUDED.allowed_location_uuids,
    revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`),
});

/** The uuids of known tokens by value (case-insensitive) and type; for group references and imports. */
export const findIdTokensByKey = sqlStatement<
  { tenantUuid: string; keys: string },
  { uuid: string; key_index: number }
>({
  name: 'id-tokens.find-by-key',
  parameters: ['tenantUuid', 'keys'],
  sql: `SELECT t.uuid, k.key_index
          FROM jsonb_to_recordset(:keys::jsonb) AS k(key_index int, id_token text, type text)
          JOIN assets.id_tokens t
            ON t.tenant_uuid = :tenantUuid AND lower(t.id_token) = lower(k.id_token) AND t.type = k.type`,
});

/** Which of the given locations the tenant has. */
export const findTenantLocations = sqlStatement<{ tenantUuid: string; uuids: string[] }, { uuid: string }>({
  name: 'id-tokens.find-locations',
  parameters: ['tenantUuid', 'uuids'],
  sql: `SELECT uuid FROM assets.locations WHERE tenant_uuid = :tenantUuid AND uuid = ANY(:uuids::uuid[])`,
});

/** Keeps one part of an import until its commit. */
export const insertImportPart = sqlStatement<{
  importUuid: string;
  tenantUuid: string;
  firstIndex: number;
  tokens: string;
  now: Date;
}>({
  name: 'id-tokens.insert-import-part',
  parameters: ['importUuid', 'tenantUuid', 'firstIndex', 'tokens', 'now'],
  sql: `INSERT INTO assets.id_token_import_parts (import_uuid, tenant_uuid, first_index, tokens, created_at)
        VALUES (:importUuid, :tenantUuid, :firstIndex, :tokens::jsonb, :now)
        ON CONFLICT (import_uuid, first_index) DO NOTHING`,
});

/** Takes the parts of an import out (they are gone whether the commit succeeds or not). */
export const takeImportParts = sqlStatement<
  { importUuid: string; tenantUuid: string },
  { first_index: number; tokens: unknown[] }
>({
  name: 'id-tokens.take-import-parts',
  parameters: ['importUuid', 'tenantUuid'],
  sql: `DELETE FROM assets.id_token_import_parts WHERE import_uuid = :importUuid AND tenant_uuid = :tenantUuid
        RETURNING first_index, tokens`,
});

/** Parts of imports never committed (the api-gateway stopped half-way), older than the cutoff. */
export const deleteAbandonedImportParts = sqlStatement<{ before: Date }>({
  name: 'id-tokens.delete-abandoned-import-parts',
  parameters: ['before'],
  sql: `DELETE FROM assets.id_token_import_parts WHERE created_at < :before`,
});

/** A token as the gateways' caches take it (AuthorizationToken), with its group's value and type. */
export interface AuthorizationTokenRow {
  uuid: string;
  id_token: string;
  type: IdTokenType;
  status: IdTokenStatus;
  expires_at: Date | null;
  group_id_token: string | null;
  group_type: IdTokenType | null;
  allowed_location_uuids: string[];
}

const AUTHORIZATION_TOKEN_COLUMNS = `t.uuid, t.id_token, t.type, t.status, t.expires_at,
  g.id_token AS group_id_token, g.type AS group_type, t.allowed_location_uuids`;

/**
 * One page of a tenant's tokens in uuid order, with the tenant's revision read in the same statement (one snapshot):
 * a page always shows the tokens as they were at that revision. A tenant without tokens answers one row of nulls.
 */
export const idTokenSnapshotPage = sqlStatement<
  { tenantUuid: string; afterUuid: string; limit: number },
  { revision: string } & { [K in keyof AuthorizationTokenRow]: AuthorizationTokenRow[K] | null }
>({
  name: 'id-tokens.snapshot-page',
  parameters: ['tenantUuid', 'afterUuid', 'limit'],
  sql: `SELECT COALESCE(r.revision, 0) AS revision, page.*
          FROM (SELECT 1) one
          LEFT JOIN assets.id_token_revisions r ON r.tenant_uuid = :tenantUuid
          LEFT JOIN LATERAL (
            SELECT ${AUTHORIZATION_TOKEN_COLUMNS}
              FROM assets.id_tokens t
              LEFT JOIN assets.id_tokens g ON g.tenant_uuid = t.tenant_uuid AND g.uuid = t.group_uuid
             WHERE t.tenant_uuid = :tenantUuid AND t.uuid > :afterUuid::uuid
             ORDER BY t.uuid
             LIMIT :limit) page ON true`,
});

/** The tokens of one change, as the gateways' caches take them. */
export const authorizationTokensByUuid = sqlStatement<
  { tenantUuid: string; uuids: string[] },
  AuthorizationTokenRow
>({
  name: 'id-tokens.authorization-tokens',
  parameters: ['tenantUuid', 'uuids'],
  sql: `SELECT ${AUTHORIZATION_TOKEN_COLUMNS}
          FROM assets.id_tokens t
          LEFT JOIN assets.id_tokens g ON g.tenant_uuid = t.tenant_uuid AND g.uuid = t.group_uuid
         WHERE t.tenant_uuid = :tenantUuid AND t.uuid = ANY(:uuids::uuid[])`,
});

/** The revisions of several tenants, in the order asked (0: never written). */
export const idTokenRevisions = sqlStatement<{ tenantUuids: string[] }, { revision: string }>({
  name: 'id-tokens.revisions',
  parameters: ['tenantUuids'],
  sql: `SELECT COALESCE(r.revision, 0) AS revision
          FROM unnest(:tenantUuids::uuid[]) WITH ORDINALITY AS x(tenant_uuid, position)
          LEFT JOIN assets.id_token_revisions r ON r.tenant_uuid = x.tenant_uuid
         ORDER BY x.position`,
});

/** For the SQL snapshots. */
export const ID_TOKENS_STATEMENTS = [
  raiseIdTokenRevision,
  insertIdTokens,
  upsertIdTokens,
  findIdTokensByKey,
  findTenantLocations,
  insertImportPart,
  takeImportParts,
  deleteAbandonedImportParts,
  idTokenSnapshotPage,
  authorizationTokensByUuid,
  idTokenRevisions,
];
