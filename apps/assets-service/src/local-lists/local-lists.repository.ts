import { sqlStatement } from '@cpc/database';
import type { LocalListUpdateKind } from '@cpc/contracts';
import type { AuthorizationTokenRow } from '../id-tokens/id-tokens.repository.js';
import type { LocalListEntry, LocalListRemoval } from './local-list-plan.js';

/**
 * The statements of local authorization lists: the list each controller accepted last (assets.local_lists) and the
 * update a send_local_list is delivering (assets.local_list_updates).
 */

/** The controller's location, when the tenant has the controller. */
export const controllerLocation = sqlStatement<
  { tenantUuid: string; controllerUuid: string },
  { location_uuid: string }
>({
  name: 'local-lists.controller-location',
  parameters: ['tenantUuid', 'controllerUuid'],
  sql: `SELECT location_uuid FROM assets.controllers WHERE tenant_uuid = :tenantUuid AND uuid = :controllerUuid`,
});

const TOKEN_COLUMNS = `t.uuid, t.id_token, t.type, t.status, t.expires_at,
  g.id_token AS group_id_token, g.type AS group_type, t.allowed_location_uuids`;

/** Every token of the tenant allowed at the location (no location restriction, or this one among them). */
export const tokensAllowedAt = sqlStatement<
  { tenantUuid: string; locationUuid: string },
  AuthorizationTokenRow
>({
  name: 'local-lists.tokens-allowed-at',
  parameters: ['tenantUuid', 'locationUuid'],
  sql: `SELECT ${TOKEN_COLUMNS}
          FROM assets.id_tokens t
          LEFT JOIN assets.id_tokens g ON g.tenant_uuid = t.tenant_uuid AND g.uuid = t.group_uuid
         WHERE t.tenant_uuid = :tenantUuid
           AND (cardinality(t.allowed_location_uuids) = 0 OR :locationUuid::uuid = ANY (t.allowed_location_uuids))
         ORDER BY t.uuid`,
});

/** The list the controller accepted last. */
export const recordedLocalList = sqlStatement<
  { tenantUuid: string; controllerUuid: string },
  { version: number; entries: LocalListEntry[] }
>({
  name: 'local-lists.recorded',
  parameters: ['tenantUuid', 'controllerUuid'],
  sql: `SELECT version, entries FROM assets.local_lists
         WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid`,
});

export interface LocalListUpdateRow {
  controller_uuid: string;
  update_type: LocalListUpdateKind;
  /** The version of the update's first part. */
  version: number;
  tokens: LocalListEntry[];
  removals: LocalListRemoval[];
  /** Where the parts end (counts of tokens then removals); empty for an update prepared before parts (one part). */
  part_ends: number[];
}

/** The update prepared for a command. */
export const preparedLocalListUpdate = sqlStatement<
  { tenantUuid: string; commandUuid: string },
  LocalListUpdateRow
>({
  name: 'local-lists.prepared-update',
  parameters: ['tenantUuid', 'commandUuid'],
  sql: `SELECT controller_uuid, update_type, version, tokens, removals, part_ends FROM assets.local_list_updates
         WHERE command_uuid = :commandUuid AND tenant_uuid = :tenantUuid`,
});

/** Keeps the update a command delivers until the charge point's answer; a new preparation replaces the one before. */
export const saveLocalListUpdate = sqlStatement<{
  commandUuid: string;
  tenantUuid: string;
  controllerUuid: string;
  updateType: LocalListUpdateKind;
  baseVersion: number;
  tokens: string;
  removals: string;
  entries: string;
  baseEntries: string | null;
  partEnds: number[];
  now: Date;
}>({
  name: 'local-lists.save-update',
  parameters: [
    'commandUuid',
    'tenantUuid',
    'controllerUuid',
    'updateType',
    'baseVersion',
    'tokens',
    'removals',
    'entries',
    'baseEntries',
    'partEnds',
    'now',
  ],
  sql: `INSERT INTO assets.local_list_updates AS u (command_uuid, tenant_uuid, controller_uuid, update_type,
                                                   base_version, version, tokens, removals, entries, base_entries,
                                                   part_ends, prepared_at)
        VALUES (:commandUuid, :tenantUuid, :controllerUuid, :updateType, :baseVersion, :baseVersion + 1,
                :tokens::jsonb, :removals::jsonb, :entries::jsonb, :baseEntries::jsonb, :partEnds::integer[], :now)
        ON CONFLICT (command_uuid) DO UPDATE SET
          controller_uuid = EXCLUDED.controller_uuid, update_type = EXCLUDED.update_type, base_version = EXCLUDED.base_version, version = EXCLUDED.version,
          tokens = EXCLUDED.tokens, removals = EXCLUDED.removals, entries = EXCLUDED.entries,
          base_entries = EXCLUDED.base_entries, part_ends = EXCLUDED.part_ends, prepared_at = EXCLUDED.prepared_at
        WHERE u.tenant_uuid = EXCLUDED.tenant_uuid`,
});

/** A command's update with what settling it needs, locked until the transaction ends (reports of it take turns). */
export const lockedLocalListUpdate = sqlStatement<
  { tenantUuid: string; commandUuid: string },
  LocalListUpdateRow & {
    tenant_uuid: string;
    base_version: number;
    entries: LocalListEntry[];
    base_entries: LocalListEntry[] | null;
  }
>({
  name: 'local-lists.locked-update',
  parameters: ['tenantUuid', 'commandUuid'],
  sql: `SELECT tenant_uuid, controller_uuid, update_type, base_version, version, tokens, removals, entries,
               base_entries, part_ends
          FROM assets.local_list_updates
         WHERE command_uuid = :commandUuid AND tenant_uuid = :tenantUuid
           FOR UPDATE`,
});

/**
 * Makes `entries` the controller's list at `version`, only over the list the update was prepared against (recorded at
 * `baseVersion`) or one its own earlier parts left (this command's, below `version`): a list recorded meanwhile by
 * another update, even at a version between, or a report older than what is recorded, changes nothing.
 */
export const recordLocalList = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  baseVersion: number;
  version: number;
  entries: string;
  commandUuid: string;
  now: Date;
}>({
  name: 'local-lists.record',
  parameters: ['tenantUuid', 'controllerUuid', 'baseVersion', 'version', 'entries', 'commandUuid', 'now'],
  sql: `INSERT INTO assets.local_lists AS l (tenant_uuid, controller_uuid, version, entries, command_uuid, updated_at)
        VALUES (:tenantUuid, :controllerUuid, :version, :entries::jsonb, :commandUuid, :now)
        ON CONFLICT (tenant_uuid, controller_uuid) DO UPDATE SET
          version = EXCLUDED.version, entries = EXCLUDED.entries, command_uuid = EXCLUDED.command_uuid,
          updated_at = EXCLUDED.updated_at
        WHERE l.version = :baseVersion OR (l.command_uuid = :commandUuid AND l.version < EXCLUDED.version)`,
});

/** Takes out a command's update once no further part of it goes out. */
export const deleteLocalListUpdate = sqlStatement<{ tenantUuid: string; commandUuid: string }>({
  name: 'local-lists.delete-update',
  parameters: ['tenantUuid', 'commandUuid'],
  sql: `DELETE FROM assets.local_list_updates WHERE command_uuid = :commandUuid AND tenant_uuid = :tenantUuid`,
});

/** Updates whose answer never came (the call failed or timed out), older than the cutoff. */
export const deleteAbandonedLocalListUpdates = sqlStatement<{ before: Date }>({
  name: 'local-lists.delete-abandoned-updates',
  parameters: ['before'],
  sql: `DELETE FROM assets.local_list_updates WHERE prepared_at < :before`,
});

/** Which of the uuids are the tenant's tokens. */
export const existingIdTokens = sqlStatement<{ tenantUuid: string; uuids: string[] }, { uuid: string }>({
  name: 'local-lists.existing-id-tokens',
  parameters: ['tenantUuid', 'uuids'],
  sql: `SELECT uuid FROM assets.id_tokens WHERE tenant_uuid = :tenantUuid AND uuid = ANY (:uuids::uuid[])`,
});

/** For the SQL snapshots. */
export const LOCAL_LISTS_STATEMENTS = [
  controllerLocation,
  tokensAllowedAt,
  recordedLocalList,
  preparedLocalListUpdate,
  saveLocalListUpdate,
  lockedLocalListUpdate,
  recordLocalList,
  deleteLocalListUpdate,
  deleteAbandonedLocalListUpdates,
  existingIdTokens,
];
