import { sqlStatement } from '@cpc/database';
import {
  type ControllerState,
  type PlugState,
  type RememberedDisconnect,
  rememberedDisconnects,
} from './charge-point-state.js';

/**
 * The statements of the charge point state consumer: a batch's controllers and plugs are read and locked (in uuid
 * order, so two transactions never wait on each other in a circle), then written back in one statement each, their
 * values as arrays (one row per array index). Instants go as Dates, which node-postgres writes in PostgreSQL's own
 * format (years before 1 and after 9999 included, unlike ISO 8601's extended years). Stream sequences are stored as
 * bigint and read as float8, which node-postgres returns as a number (exact up to 2^53, as the sequence is in
 * JavaScript anyway), where it returns a bigint as a string.
 */

export interface ControllerStateRow extends ControllerState {
  tenantUuid: string;
  uuid: string;
}

/**
 * A controller's live state as stored. Of the remembered disconnects, the newest has the columns it had when only one
 * was remembered (connection_closed_id, _at, _seq), so that a replica of that version still finds it; the others are
 * in connection_closed_earlier, a JSON array (newest first) of {connectionId, at (ISO 8601), sequence}, null when none.
 */
export interface ControllerStateRecord extends Omit<ControllerState, 'connectionsClosed'> {
  tenantUuid: string;
  uuid: string;
  connectionClosedId: string | null;
  connectionClosedAt: Date | null;
  connectionClosedSequence: number | null;
  /** As node-postgres parses jsonb. */
  connectionClosedEarlier: unknown;
}

/** A stored disconnect, or null when the JSON is not one (written by hand, say): then it is not remembered. */
function storedDisconnect(value: unknown): RememberedDisconnect | null {
  if (typeof value !== 'object' || value === null) return null;
  const { connectionId, at, sequence } = value as Record<string, unknown>;
  const instant = typeof at === 'string' ? new Date(at) : null;
  if (instant === null || Number.isNaN(instant.getTime())) return null;
  if (typeof sequence !== 'number' || (connectionId !== null && typeof connectionId !== 'string'))
    return null;
  return { connectionId, at: instant, sequence };
}

/** The state the rules work on, from the record as stored. */
export function controllerStateOf(record: ControllerStateRecord): ControllerStateRow {
  const {
    connectionClosedId,
    connectionClosedAt,
    connectionClosedSequence,
    connectionClosedEarlier,
    ...state
  } = record;
  const stored = Array.isArray(connectionClosedEarlier)
    ? connectionClosedEarlier.map(storedDisconnect).filter((disconnect) => disconnect !== null)
    : [];
  if (connectionClosedAt !== null) {
    stored.push({
      connectionId: connectionClosedId,
      at: connectionClosedAt,
      sequence: connectionClosedSequence ?? 0,
    });
  }
  return {
    ...state,
    connectionsClosed: rememberedDisconnects(
      stored,
      state.connectionOpenedAt,
      state.connectionOpenedSequence,
    ),
  };
}

/** The columns of the remembered disconnects (see ControllerStateRecord). */
export function storedDisconnects(state: ControllerState): {
  connectionClosedId: string | null;
  connectionClosedAt: Date | null;
  connectionClosedSequence: number | null;
  connectionClosedEarlier: string | null;
} {
  const [newest, ...earlier] = state.connectionsClosed;
  return {
    connectionClosedId: newest?.connectionId ?? null,
    connectionClosedAt: newest?.at ?? null,
    connectionClosedSequence: newest?.sequence ?? null,
    connectionClosedEarlier: earlier.length === 0 ? null : JSON.stringify(earlier),
  };
}

export interface PlugStateRow extends PlugState {
  tenantUuid: string;
  controllerUuid: string;
}

/**
 * The live state of the controllers named by (tenant, uuid) pairs that exist, locked until the transaction ends.
 * FOR NO KEY UPDATE, the lock the UPDATE takes anyway: it keeps other state writers out, but not the rows that refer
 * to a controller (the event log's inserts take its key share), which FOR UPDATE made wait and could deadlock with.
 */
export const lockControllerStates = sqlStatement<
  { tenantUuids: string[]; controllerUuids: string[] },
  ControllerStateRecord
>({
  name: 'charge-point-state.lock-controllers',
  parameters: ['tenantUuids', 'controllerUuids'],
  sql: `SELECT c.tenant_uuid AS "tenantUuid", c.uuid, c.connection_status AS "connectionStatus",
              c.connection_id AS "connectionId", c.connection_changed_at AS "connectionChangedAt",
              c.connection_opened_at AS "connectionOpenedAt",
              c.connection_opened_seq::float8 AS "connectionOpenedSequence",
              c.connection_closed_id AS "connectionClosedId", c.connection_closed_at AS "connectionClosedAt",
              c.connection_closed_seq::float8 AS "connectionClosedSequence",
              c.connection_closed_earlier AS "connectionClosedEarlier",
              c.ocpp_protocol AS "ocppProtocol", c.last_seen_at AS "lastSeenAt", c.vendor, c.model,
              c.serial_number AS "serialNumber", c.firmware_version AS "firmwareVersion", c.booted_at AS "bootedAt",
              c.booted_seq::float8 AS "bootedSequence"
         FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[]) AS k(tenant_uuid, uuid)
         JOIN assets.controllers c ON c.tenant_uuid = k.tenant_uuid AND c.uuid = k.uuid
        ORDER BY c.uuid
          FOR NO KEY UPDATE OF c`,
});

/** The plugs of the controllers named by (tenant, uuid) pairs, locked until the transaction ends. */
export const lockPlugStates = sqlStatement<
  { tenantUuids: string[]; controllerUuids: string[] },
  PlugStateRow
>({
  name: 'charge-point-state.lock-plugs',
  parameters: ['tenantUuids', 'controllerUuids'],
  sql: `SELECT p.uuid, p.tenant_uuid AS "tenantUuid", p.controller_uuid AS "controllerUuid",
              p.connector_id AS "connectorId", p.evse_id AS "evseId", p.status, p.error_code AS "errorCode",
              p.status_updated_at AS "statusUpdatedAt", p.status_updated_seq::float8 AS "statusUpdatedSequence"
         FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[]) AS k(tenant_uuid, controller_uuid)
         JOIN assets.plugs p ON p.tenant_uuid = k.tenant_uuid AND p.controller_uuid = k.controller_uuid
        ORDER BY p.uuid
          FOR NO KEY UPDATE OF p`,
});

/** The new live state of many controllers, one row per array index. */
export const writeControllerStates = sqlStatement<{
  tenantUuids: string[];
  uuids: string[];
  connectionStatuses: string[];
  connectionIds: (string | null)[];
  connectionChangedAts: (Date | null)[];
  connectionOpenedAts: (Date | null)[];
  connectionOpenedSequences: (number | null)[];
  connectionClosedIds: (string | null)[];
  connectionClosedAts: (Date | null)[];
  connectionClosedSequences: (number | null)[];
  /** JSON text of each row's earlier remembered disconnects, or null. */
  connectionClosedEarliers: (string | null)[];
  ocppProtocols: (string | null)[];
  lastSeenAts: (Date | null)[];
  vendors: (string | null)[];
  models: (string | null)[];
  serialNumbers: (string | null)[];
  firmwareVersions: (string | null)[];
  bootedAts: (Date | null)[];
  bootedSequences: (number | null)[];
}>({
  name: 'charge-point-state.write-controllers',
  parameters: [
    'tenantUuids',
    'uuids',
    'connectionStatuses',
    'connectionIds',
    'connectionChangedAts',
    'connectionOpenedAts',
    'connectionOpenedSequences',
    'connectionClosedIds',
    'connectionClosedAts',
    'connectionClosedSequences',
    'connectionClosedEarliers',
    'ocppProtocols',
    'lastSeenAts',
    'vendors',
    'models',
    'serialNumbers',
    'firmwareVersions',
    'bootedAts',
    'bootedSequences',
  ],
  sql: `UPDATE assets.controllers c
          SET connection_status = s.connection_status, connection_id = s.connection_id,
              connection_changed_at = s.connection_changed_at, connection_opened_at = s.connection_opened_at,
              connection_opened_seq = s.connection_opened_seq, connection_closed_id = s.connection_closed_id,
              connection_closed_at = s.connection_closed_at, connection_closed_seq = s.connection_closed_seq,
              connection_closed_earlier = s.connection_closed_earlier, ocpp_protocol = s.ocpp_protocol,
              last_seen_at = s.last_seen_at, vendor = s.vendor, model = s.model, serial_number = s.serial_number,
              firmware_version = s.firmware_version, booted_at = s.booted_at, booted_seq = s.booted_seq
         FROM unnest(:tenantUuids::uuid[], :uuids::uuid[], :connectionStatuses::varchar[], :connectionIds::varchar[],
                     :connectionChangedAts::timestamptz[], :connectionOpenedAts::timestamptz[],
                     :connectionOpenedSequences::bigint[], :connectionClosedIds::varchar[],
                     :connectionClosedAts::timestamptz[], :connectionClosedSequences::bigint[],
                     :connectionClosedEarliers::jsonb[], :ocppProtocols::varchar[], :lastSeenAts::timestamptz[],
                     :vendors::varchar[], :models::varchar[], :serialNumbers::varchar[], :firmwareVersions::varchar[],
                     :bootedAts::timestamptz[], :bootedSequences::bigint[])
              AS s(tenant_uuid, uuid, connection_status, connection_id, connection_changed_at, connection_opened_at,
                   connection_opened_seq, connection_closed_id, connection_closed_at, connection_closed_seq,
                   connection_closed_earlier, ocpp_protocol, last_seen_at, vendor, model, serial_number,
                   firmware_version, booted_at, booted_seq)
        WHERE c.tenant_uuid = s.tenant_uuid AND c.uuid = s.uuid`,
});

/** The new status of many plugs, one row per array index. */
export const writePlugStates = sqlStatement<{
  uuids: string[];
  statuses: string[];
  errorCodes: (string | null)[];
  statusUpdatedAts: (Date | null)[];
  statusUpdatedSequences: (number | null)[];
}>({
  name: 'charge-point-state.write-plugs',
  parameters: ['uuids', 'statuses', 'errorCodes', 'statusUpdatedAts', 'statusUpdatedSequences'],
  sql: `UPDATE assets.plugs p
          SET status = s.status, error_code = s.error_code, status_updated_at = s.status_updated_at,
              status_updated_seq = s.status_updated_seq
         FROM unnest(:uuids::uuid[], :statuses::varchar[], :errorCodes::varchar[], :statusUpdatedAts::timestamptz[],
                     :statusUpdatedSequences::bigint[])
              AS s(uuid, status, error_code, status_updated_at, status_updated_seq)
        WHERE p.uuid = s.uuid`,
});

/** For the SQL snapshots. */
export const CHARGE_POINT_STATE_STATEMENTS = [
  lockControllerStates,
  lockPlugStates,
  writeControllerStates,
  writePlugStates,
];
