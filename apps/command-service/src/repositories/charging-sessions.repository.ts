import type { ChargingSessionSortField, SortDirection } from '@cpc/contracts';
import {
  insertingTransactionMark,
  insertMarker,
  pagedListStatements,
  type PagedListStatements,
  sqlStatement,
  visibilityHorizonStatement,
} from '@cpc/database';
import type { OrderedKeysetColumn } from '@cpc/pagination';
import {
  meterSummaryLockKey,
  peakPowerW,
  rangeHolds,
  transactionSessionAt,
  transactionSessions,
} from './transaction-session-ranges.js';

/**
 * The statements of control.charging_sessions. Every write is an upsert on the session's uuid that fills what it
 * knows and keeps what is known already (see ChargingSessionsService): a start finds its session by the transaction id
 * and its start, every other event by the transaction id and its time (transaction-session-ranges.ts), as a charge
 * point may use an id again. The API's get goes through the entity, its list through the paged-list statements below.
 */

/** The part of a session the plug resolution needs. */
export interface SessionPlugState {
  uuid: string;
  plugUuid: string | null;
  connectorId: number | null;
  evseId: number | null;
  /** Whether the start is known: only started sessions get a plug (and so count as the plug's active session). */
  started: boolean;
}

/** Why the platform ended a session the charge point did not end itself. */
export const INFERRED_STOP_REASONS = {
  /** A newer transaction started on the same connector, or with the same transaction id. */
  superseded: 'superseded',
  /** The charge point rebooted while it ran and then reported its connector Available. */
  chargePointRebooted: 'charge_point_rebooted',
} as const;

const PLUG_STATE = `uuid, plug_uuid AS "plugUuid", connector_id AS "connectorId", evse_id AS "evseId",
                started_at IS NOT NULL AS started`;

/** What a start wrote: the session, and whether its transaction id has other sessions (the charge point reused it). */
export interface StartedSessionRow extends SessionPlugState {
  idReused: boolean;
}

/** The sessions of the transaction of the statement's parameters, with their ranges (transactionSessions). */
const SESSIONS_OF_TRANSACTION = transactionSessions(
  ':tenantUuid::uuid',
  ':controllerUuid::uuid',
  ':transactionId::varchar',
);

/** The session of the transaction of the statement's parameters whose range holds `at` (an SQL expression). */
const sessionOfTransactionAt = (at: string) =>
  transactionSessionAt(':tenantUuid::uuid', ':controllerUuid::uuid', ':transactionId::varchar', at);

/** What a command targeting a session needs of it. */
export interface SessionTargetRow {
  controller_uuid: string;
  ocpp_transaction_id: string;
  connector_id: number | null;
  evse_id: number | null;
  /** A later session has the same transaction id: the charge point used the id again after this one. */
  superseded: boolean;
}

/**
 * Every session write that can insert one is marked, so the list by created_at sees it in flight (its visibility
 * horizon): the upserts below, each an autocommit statement of its own, start with this comment; a transaction that
 * inserts sessions among other writes (the meter-value batches) marks itself first (SESSION_INSERTS_TRANSACTION_MARK).
 */
const SESSIONS_INSERT_MARKER = insertMarker('control.charging_sessions');

/** Marks a transaction that goes on to insert sessions (see SESSIONS_INSERT_MARKER); it stamps them after the mark. */
export const SESSION_INSERTS_TRANSACTION_MARK = insertingTransactionMark('control.charging_sessions');

/** The visibility horizon of the list by created_at: inserts are marked by their statement or their transaction. */
export const chargingSessionsVisibilityHorizon = visibilityHorizonStatement('control.charging_sessions', [
  'statement',
  'transaction',
]);

/**
 * A new session's created_at and updated_at: PostgreSQL's clock while the marked statement runs, after the horizon can
 * see it (its start, and now(), come before the marker shows in pg_stat_activity).
 */
const INSERT_STAMPS = 'clock_timestamp(), clock_timestamp()';

/**
 * What a transaction's start says of a session. Its session is the one of the transaction id with this start (a
 * repeat), else the one its other events opened before the start was heard (unless that one ended before this start),
 * else a new one: the first of the id takes :uuid, derived from the id; a later one (the id used again) :startUuid,
 * derived from the id and the start. Nothing is returned when another start took the session found meanwhile; run
 * again, it finds its own.
 */
export const recordChargingSessionStart = sqlStatement<
  {
    uuid: string;
    startUuid: string;
    tenantUuid: string;
    controllerUuid: string;
    transactionId: string;
    connectorId: number | null;
    evseId: number | null;
    idTag: string | null;
    startedAt: string;
    meterStartWh: number | null;
  },
  StartedSessionRow
>({
  name: 'charging-sessions.record-start',
  parameters: [
    'uuid',
    'startUuid',
    'tenantUuid',
    'controllerUuid',
    'transactionId',
    'connectorId',
    'evseId',
    'idTag',
    'startedAt',
    'meterStartWh',
  ],
  sql: `${SESSIONS_INSERT_MARKER}
       INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, connector_id, evse_id, id_tag, started_at,
               meter_start_wh, created_at, updated_at)
       SELECT COALESCE(
                (SELECT o.uuid FROM control.charging_sessions o
                  WHERE o.tenant_uuid = :tenantUuid::uuid AND o.controller_uuid = :controllerUuid::uuid
                    AND o.ocpp_transaction_id = :transactionId::varchar
                    AND (o.started_at = :startedAt::timestamptz
                         OR (o.started_at IS NULL
                             AND (o.stopped_at IS NULL OR o.stopped_at >= :startedAt::timestamptz)))
                  ORDER BY o.started_at NULLS LAST LIMIT 1),
                CASE WHEN EXISTS (SELECT FROM control.charging_sessions o
                                   WHERE o.tenant_uuid = :tenantUuid::uuid AND o.controller_uuid = :controllerUuid::uuid
                                     AND o.ocpp_transaction_id = :transactionId::varchar)
                     THEN :startUuid::uuid ELSE :uuid::uuid END),
              :tenantUuid::uuid, :controllerUuid::uuid, :transactionId::varchar, :connectorId::integer,
              :evseId::integer, :idTag::varchar, :startedAt::timestamptz, :meterStartWh::numeric, ${INSERT_STAMPS}
       ON CONFLICT (uuid) DO UPDATE SET
         connector_id = COALESCE(s.connector_id, EXCLUDED.connector_id),
         evse_id = COALESCE(s.evse_id, EXCLUDED.evse_id),
         id_tag = COALESCE(s.id_tag, EXCLUDED.id_tag),
         started_at = COALESCE(s.started_at, EXCLUDED.started_at),
         meter_start_wh = COALESCE(s.meter_start_wh, EXCLUDED.meter_start_wh),
         updated_at = now()
       WHERE s.started_at IS NULL OR s.started_at = EXCLUDED.started_at
       RETURNING ${PLUG_STATE},
                 EXISTS (SELECT FROM control.charging_sessions o
                          WHERE o.tenant_uuid = s.tenant_uuid AND o.controller_uuid = s.controller_uuid
                            AND o.ocpp_transaction_id = s.ocpp_transaction_id AND o.uuid <> s.uuid) AS "idReused"`,
});

/**
 * The EVSE / connector a later message of the transaction (sent at :at) names (2.0.1 may leave them out of the
 * start); a message of the transaction also shows it outlived any reboot.
 */
export const recordChargingSessionLocation = sqlStatement<
  {
    tenantUuid: string;
    controllerUuid: string;
    transactionId: string;
    at: string;
    connectorId: number | null;
    evseId: number | null;
  },
  SessionPlugState
>({
  name: 'charging-sessions.record-location',
  parameters: ['tenantUuid', 'controllerUuid', 'transactionId', 'at', 'connectorId', 'evseId'],
  sql: `UPDATE control.charging_sessions
          SET connector_id = COALESCE(connector_id, :connectorId),
              evse_id = COALESCE(evse_id, :evseId),
              rebooted_at = NULL,
              updated_at = now()
        WHERE uuid = (${sessionOfTransactionAt(':at::timestamptz')})
        RETURNING ${PLUG_STATE}`,
});

/**
 * A meter reading, on the session of the transaction id whose range holds its time (a new session, the id's first,
 * when it has none); the latest by sample time is kept, and an event without one keeps it.
 */
export const recordChargingSessionMeterValue = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  meterWh: number | null;
  sampledAt: string;
}>({
  name: 'charging-sessions.record-meter-value',
  parameters: ['uuid', 'tenantUuid', 'controllerUuid', 'transactionId', 'meterWh', 'sampledAt'],
  sql: `${SESSIONS_INSERT_MARKER}
       INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, meter_last_wh, meter_last_at, created_at,
               updated_at)
       SELECT COALESCE((${sessionOfTransactionAt(':sampledAt::timestamptz')}), :uuid::uuid), :tenantUuid::uuid,
              :controllerUuid::uuid, :transactionId::varchar, :meterWh::numeric, :sampledAt::timestamptz,
              ${INSERT_STAMPS}
       ON CONFLICT (uuid) DO UPDATE SET
         meter_last_wh = COALESCE(EXCLUDED.meter_last_wh, s.meter_last_wh),
         meter_last_at = CASE WHEN EXCLUDED.meter_last_wh IS NULL THEN s.meter_last_at ELSE EXCLUDED.meter_last_at END,
         rebooted_at = NULL,
         updated_at = now()
       WHERE s.meter_last_at IS NULL OR s.meter_last_at <= EXCLUDED.meter_last_at`,
});

/**
 * The id token a later message of the transaction (sent at :at) carries (2.0.1 authorizes after a start without one,
 * TxStartPoint EVConnected); the first one known is kept. An upsert, as it may come before the start; a message of
 * the transaction also shows it outlived any reboot.
 */
export const recordChargingSessionIdTag = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  at: string;
  idTag: string;
}>({
  name: 'charging-sessions.record-id-tag',
  parameters: ['uuid', 'tenantUuid', 'controllerUuid', 'transactionId', 'at', 'idTag'],
  sql: `${SESSIONS_INSERT_MARKER}
       INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, id_tag, created_at, updated_at)
       SELECT COALESCE((${sessionOfTransactionAt(':at::timestamptz')}), :uuid::uuid), :tenantUuid::uuid,
              :controllerUuid::uuid, :transactionId::varchar, :idTag::varchar, ${INSERT_STAMPS}
       ON CONFLICT (uuid) DO UPDATE SET
         id_tag = COALESCE(s.id_tag, EXCLUDED.id_tag),
         rebooted_at = NULL,
         updated_at = now()`,
});

/**
 * What a transaction's end says of the session whose range holds its time; the charge point's own end replaces one
 * the platform inferred.
 */
export const recordChargingSessionEnd = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  stoppedAt: string;
  meterStopWh: number | null;
  stopReason: string | null;
}>({
  name: 'charging-sessions.record-end',
  parameters: [
    'uuid',
    'tenantUuid',
    'controllerUuid',
    'transactionId',
    'stoppedAt',
    'meterStopWh',
    'stopReason',
  ],
  sql: `${SESSIONS_INSERT_MARKER}
       INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, stopped_at, meter_stop_wh, stop_reason,
               created_at, updated_at)
       SELECT COALESCE((${sessionOfTransactionAt(':stoppedAt::timestamptz')}), :uuid::uuid), :tenantUuid::uuid,
              :controllerUuid::uuid, :transactionId::varchar, :stoppedAt::timestamptz, :meterStopWh::numeric,
              :stopReason::varchar, ${INSERT_STAMPS}
       ON CONFLICT (uuid) DO UPDATE SET
         stopped_at = CASE WHEN s.stop_reason IN ('${INFERRED_STOP_REASONS.superseded}', '${INFERRED_STOP_REASONS.chargePointRebooted}')
                           THEN EXCLUDED.stopped_at ELSE COALESCE(s.stopped_at, EXCLUDED.stopped_at) END,
         meter_stop_wh = COALESCE(s.meter_stop_wh, EXCLUDED.meter_stop_wh),
         stop_reason = CASE WHEN s.stop_reason IN ('${INFERRED_STOP_REASONS.superseded}', '${INFERRED_STOP_REASONS.chargePointRebooted}')
                            THEN EXCLUDED.stop_reason ELSE COALESCE(s.stop_reason, EXCLUDED.stop_reason) END,
         updated_at = now()`,
});

/**
 * One plug assignment at a time per plug, until the transaction ends: two sessions given one plug at once each chose
 * their rivals before the other's assignment committed, and the later write failed on the one-active-session-per-plug
 * index. Taken in a statement of its own, so that the choice that follows sees the other's assignment.
 */
export const lockPlugAssignment = sqlStatement<{ plugUuid: string }>({
  name: 'charging-sessions.lock-plug-assignment',
  parameters: ['plugUuid'],
  sql: `SELECT pg_advisory_xact_lock(hashtextextended(:plugUuid::text || '/plug', 0))`,
});

/**
 * Of the started, active sessions that share the connector of session :uuid (or, once known, its plug :plugUuid),
 * all but the latest started end as superseded, at the start of the latest: a charge point that rebooted, or never
 * read the answer to a start, opens a new transaction on a connector whose old one it never ends. Locks them first,
 * so two transactions deciding for one connector take turns, and in the order the meter-value writer locks a
 * controller's sessions (by transaction id, as bytes, then uuid), so the two never deadlock.
 */
export const supersedeOlderSessions = sqlStatement<
  { uuid: string; plugUuid: string | null },
  { uuid: string }
>({
  name: 'charging-sessions.supersede-older',
  parameters: ['uuid', 'plugUuid'],
  sql: `WITH target AS (
         SELECT tenant_uuid, controller_uuid, connector_id, evse_id FROM control.charging_sessions WHERE uuid = :uuid
       ),
       rivals AS (
         SELECT s.uuid, s.started_at, s.created_at
           FROM control.charging_sessions s JOIN target t
             ON s.tenant_uuid = t.tenant_uuid AND s.controller_uuid = t.controller_uuid
          WHERE s.stopped_at IS NULL AND s.started_at IS NOT NULL
            AND (s.uuid = :uuid
                 OR s.plug_uuid = :plugUuid::uuid
                 OR (t.connector_id IS NOT NULL AND s.connector_id = t.connector_id
                     AND s.evse_id IS NOT DISTINCT FROM t.evse_id))
          ORDER BY s.ocpp_transaction_id COLLATE "C", s.uuid
            FOR UPDATE OF s
       ),
       latest AS (SELECT uuid, started_at FROM rivals ORDER BY started_at DESC, created_at DESC, uuid DESC LIMIT 1)
       UPDATE control.charging_sessions s
          SET stopped_at = GREATEST(s.started_at, latest.started_at),
              stop_reason = '${INFERRED_STOP_REASONS.superseded}',
              updated_at = now()
         FROM latest
        WHERE s.uuid IN (SELECT uuid FROM rivals) AND s.uuid <> latest.uuid
       RETURNING s.uuid`,
});

/**
 * A start of a transaction id the charge point used before (it rebooted and counts from 1 again, say): a session of
 * the id still open when a later one started is over, as the charge point has forgotten it. It ends at the boot when
 * a boot was heard after its last message (as a connector reporting Available would end it), else at the next start
 * of the id, as superseded. Locked by uuid, the meter-value writer's order within a transaction id.
 */
export const endReusedTransactionSessions = sqlStatement<
  { tenantUuid: string; controllerUuid: string; transactionId: string },
  { uuid: string }
>({
  name: 'charging-sessions.end-reused-transaction',
  parameters: ['tenantUuid', 'controllerUuid', 'transactionId'],
  sql: `WITH session AS (${SESSIONS_OF_TRANSACTION}),
       over AS (
         SELECT s.uuid FROM control.charging_sessions s JOIN session ON session.uuid = s.uuid
          WHERE s.stopped_at IS NULL AND s.started_at IS NOT NULL AND session.samples_to IS NOT NULL
          ORDER BY s.uuid
            FOR UPDATE OF s
       )
       UPDATE control.charging_sessions s
          SET stopped_at = CASE WHEN s.rebooted_at <= session.samples_to THEN GREATEST(s.started_at, s.rebooted_at)
                                ELSE session.samples_to END,
              stop_reason = CASE WHEN s.rebooted_at <= session.samples_to
                                 THEN '${INFERRED_STOP_REASONS.chargePointRebooted}'
                                 ELSE '${INFERRED_STOP_REASONS.superseded}' END,
              updated_at = now()
         FROM session
        WHERE s.uuid = session.uuid AND s.uuid IN (SELECT uuid FROM over) AND s.stopped_at IS NULL
       RETURNING s.uuid`,
});

/**
 * Waits for the transaction id's meter summary lock (meterSummaryLockKey) and holds it to the commit: the batches of
 * meter values being written then are committed before resummarizeReusedTransaction reads them, and later ones see
 * the new session.
 */
export const lockMeterSummaries = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
}>({
  name: 'charging-sessions.lock-meter-summaries',
  parameters: ['tenantUuid', 'controllerUuid', 'transactionId'],
  sql: `SELECT pg_advisory_xact_lock(${meterSummaryLockKey(':tenantUuid::uuid', ':controllerUuid::uuid', ':transactionId::varchar')})`,
});

/**
 * The meter summary (peak power, last sample) of a session of a reused transaction id, from its meter values: those
 * of the new session :uuid, and of any other whose summary holds a sample from a later session's range. The meter
 * values of a transaction event are stored apart from it, and may be before its start: until then they counted for
 * the session that held their time. Only what changes is written.
 */
export const resummarizeReusedTransaction = sqlStatement<{
  uuid: string;
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
}>({
  name: 'charging-sessions.resummarize-reused-transaction',
  parameters: ['uuid', 'tenantUuid', 'controllerUuid', 'transactionId'],
  sql: `WITH session AS (${SESSIONS_OF_TRANSACTION}),
       stale AS (
         SELECT uuid, samples_from, samples_to FROM session WHERE uuid = :uuid::uuid OR last_sample_at >= samples_to
       ),
       locked AS (
         SELECT s.uuid FROM control.charging_sessions s WHERE s.uuid IN (SELECT uuid FROM stale) ORDER BY s.uuid
            FOR UPDATE
       ),
       summary AS (
         SELECT stale.uuid, max(${peakPowerW('m')}) AS peak_power_w, max(m.sampled_at) AS last_sample_at
           FROM stale LEFT JOIN control.meter_values m
             ON m.tenant_uuid = :tenantUuid::uuid AND m.controller_uuid = :controllerUuid::uuid
            AND m.ocpp_transaction_id = :transactionId::varchar AND ${rangeHolds('stale', 'm.sampled_at')}
          GROUP BY stale.uuid
       )
       UPDATE control.charging_sessions s
          SET peak_power_w = summary.peak_power_w, last_sample_at = summary.last_sample_at, updated_at = now()
         FROM summary
        WHERE s.uuid = summary.uuid AND s.uuid IN (SELECT uuid FROM locked)
          AND (s.peak_power_w IS DISTINCT FROM summary.peak_power_w
               OR s.last_sample_at IS DISTINCT FROM summary.last_sample_at)`,
});

/**
 * Which of these controllers (:tenantUuids[i], :controllerUuids[i]) have an open session: only those have sessions a
 * boot or a connector status can change, and in a reconnect storm nearly none has one. Each controller is one probe
 * of charging_sessions_tenant_active_idx, whatever the planner believes of the number of controllers or of open
 * sessions (a lateral subquery with LIMIT runs once per controller).
 */
export const findControllersWithOpenSessions = sqlStatement<
  { tenantUuids: string[]; controllerUuids: string[] },
  { tenantUuid: string; controllerUuid: string }
>({
  name: 'charging-sessions.controllers-with-open-sessions',
  parameters: ['tenantUuids', 'controllerUuids'],
  sql: `SELECT asked.tenant_uuid AS "tenantUuid", asked.controller_uuid AS "controllerUuid"
         FROM (SELECT DISTINCT tenant_uuid, controller_uuid
                 FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[]) AS x(tenant_uuid, controller_uuid)) AS asked
        CROSS JOIN LATERAL (
          SELECT FROM control.charging_sessions s
           WHERE s.tenant_uuid = asked.tenant_uuid AND s.controller_uuid = asked.controller_uuid AND s.stopped_at IS NULL
           LIMIT 1) AS open`,
});

/** A boot: every session the controller had open may have died with it (confirmed by an Available, undone by a message of the session). */
export const markSessionsRebooted = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  bootedAt: string;
}>({
  name: 'charging-sessions.mark-rebooted',
  parameters: ['tenantUuid', 'controllerUuid', 'bootedAt'],
  sql: `UPDATE control.charging_sessions SET rebooted_at = :bootedAt, updated_at = now()
        WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid
          AND stopped_at IS NULL AND started_at IS NOT NULL`,
});

/**
 * A connector reported Available after a boot: the sessions on it that were open at the boot and not heard of since
 * have ended, at the boot. 1.6 names the connector; 2.0.1 the EVSE and its connector.
 */
export const endSessionsRebootedOnConnector = sqlStatement<
  { tenantUuid: string; controllerUuid: string; connectorId: number; evseId: number | null },
  { uuid: string }
>({
  name: 'charging-sessions.end-rebooted-on-connector',
  parameters: ['tenantUuid', 'controllerUuid', 'connectorId', 'evseId'],
  sql: `UPDATE control.charging_sessions
          SET stopped_at = GREATEST(started_at, rebooted_at),
              stop_reason = '${INFERRED_STOP_REASONS.chargePointRebooted}',
              updated_at = now()
        WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid
          AND stopped_at IS NULL AND rebooted_at IS NOT NULL
          AND CASE WHEN :evseId::integer IS NULL THEN evse_id IS NULL AND connector_id = :connectorId
                   ELSE evse_id = :evseId::integer AND (connector_id IS NULL OR connector_id = :connectorId) END
       RETURNING uuid`,
});

/** The session's plug, once resolved (never overwritten). */
export const setChargingSessionPlug = sqlStatement<{ uuid: string; plugUuid: string }>({
  name: 'charging-sessions.set-plug',
  parameters: ['uuid', 'plugUuid'],
  sql: `UPDATE control.charging_sessions SET plug_uuid = :plugUuid, updated_at = now() WHERE uuid = :uuid AND plug_uuid IS NULL`,
});

/** What a command targeting the session needs of it. */
export const findChargingSessionTarget = sqlStatement<{ tenantUuid: string; uuid: string }, SessionTargetRow>(
  {
    name: 'charging-sessions.find-target',
    parameters: ['tenantUuid', 'uuid'],
    sql: `SELECT s.controller_uuid, s.ocpp_transaction_id, s.connector_id, s.evse_id,
              range.samples_to IS NOT NULL AS superseded
         FROM control.charging_sessions s
        CROSS JOIN LATERAL (${transactionSessions('s.tenant_uuid', 's.controller_uuid', 's.ocpp_transaction_id')}) range
        WHERE s.tenant_uuid = :tenantUuid AND s.uuid = :uuid AND range.uuid = s.uuid`,
  },
);

/** A session's meter values: those of its transaction id in its range (null: unbounded), see transactionSessions. */
export interface SessionSamplesRow {
  controller_uuid: string;
  ocpp_transaction_id: string;
  samples_from: Date | null;
  samples_to: Date | null;
}

export const findChargingSessionSamples = sqlStatement<
  { tenantUuid: string; uuid: string },
  SessionSamplesRow
>({
  name: 'charging-sessions.find-samples',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT s.controller_uuid, s.ocpp_transaction_id, r.samples_from, r.samples_to
         FROM control.charging_sessions s
        CROSS JOIN LATERAL (${transactionSessions('s.tenant_uuid', 's.controller_uuid', 's.ocpp_transaction_id')}) r
        WHERE s.tenant_uuid = :tenantUuid AND s.uuid = :uuid AND r.uuid = s.uuid`,
});

/** The list's filters: each one null (not asked for) or matched exactly; `startedTo` is exclusive. */
export interface ChargingSessionListFilter {
  tenantUuid: string;
  controllerUuid: string | null;
  plugUuid: string | null;
  status: 'active' | 'completed' | null;
  idTag: string | null;
  transactionId: string | null;
  startedFrom: string | null;
  startedTo: string | null;
}

const LIST_FILTER_PARAMETERS = [
  'tenantUuid',
  'controllerUuid',
  'plugUuid',
  'status',
  'idTag',
  'transactionId',
  'startedFrom',
  'startedTo',
] as const;

const LISTED_SESSIONS = `FROM control.charging_sessions session
        WHERE session.tenant_uuid = :tenantUuid
          AND (:controllerUuid::uuid IS NULL OR session.controller_uuid = :controllerUuid::uuid)
          AND (:plugUuid::uuid IS NULL OR session.plug_uuid = :plugUuid::uuid)
          AND (:status::text IS NULL OR (session.stopped_at IS NULL) = (:status::text = 'active'))
          AND (:idTag::text IS NULL OR session.id_tag = :idTag::text)
          AND (:transactionId::text IS NULL OR session.ocpp_transaction_id = :transactionId::text)
          AND (:startedFrom::timestamptz IS NULL OR session.started_at >= :startedFrom::timestamptz)
          AND (:startedTo::timestamptz IS NULL OR session.started_at < :startedTo::timestamptz)`;

/** A listed session, its columns named as the entity's properties. */
export interface ListedChargingSessionRow {
  uuid: string;
  controllerUuid: string;
  plugUuid: string | null;
  connectorId: number | null;
  evseId: number | null;
  ocppTransactionId: string;
  idTag: string | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  meterStartWh: string | null;
  meterStopWh: string | null;
  meterLastWh: string | null;
  stopReason: string | null;
  peakPowerW: string | null;
  lastSampleAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const LISTED_COLUMNS = `session.uuid, session.controller_uuid AS "controllerUuid", session.plug_uuid AS "plugUuid",
       session.connector_id AS "connectorId", session.evse_id AS "evseId",
       session.ocpp_transaction_id AS "ocppTransactionId", session.id_tag AS "idTag",
       session.started_at AS "startedAt", session.stopped_at AS "stoppedAt",
       session.meter_start_wh AS "meterStartWh", session.meter_stop_wh AS "meterStopWh",
       session.meter_last_wh AS "meterLastWh", session.stop_reason AS "stopReason",
       session.peak_power_w AS "peakPowerW", session.last_sample_at AS "lastSampleAt",
       session.created_at AS "createdAt", session.updated_at AS "updatedAt"`;

/** One field of the list's order, as the API names it. */
export interface ChargingSessionOrder {
  field: ChargingSessionSortField;
  direction: SortDirection;
}

/**
 * The key columns of one sort field. A session whose start is not known yet sorts last in either direction: its
 * started_at is null, so the key leads with whether the start is known (a cursor cannot hold a null), then the start
 * time with the nulls folded to one value (all of them tie there, and the later columns order them).
 */
function sortFieldKey(order: ChargingSessionOrder, index: number): OrderedKeysetColumn[] {
  const direction = order.direction === 'asc' ? 'ASC' : 'DESC';
  if (order.field === 'created_at')
    return [
      {
        column: 'session.created_at',
        parameter: `cursorCreated${index}`,
        type: 'timestamptz',
        order: direction,
      },
    ];
  return [
    direction === 'DESC'
      ? {
          column: '(session.started_at IS NOT NULL)::integer',
          parameter: `cursorStartKnown${index}`,
          type: 'bigint',
          order: 'DESC',
        }
      : {
          column: '(session.started_at IS NULL)::integer',
          parameter: `cursorStartUnknown${index}`,
          type: 'bigint',
          order: 'ASC',
        },
    {
      column: "COALESCE(session.started_at, 'epoch'::timestamptz)",
      parameter: `cursorStarted${index}`,
      type: 'timestamptz',
      order: direction,
    },
  ];
}

/** The list's order: each field once (a repeat cannot change the order), then uuid in the first field's direction. */
export function chargingSessionListOrder(orderBy: readonly ChargingSessionOrder[]): ChargingSessionOrder[] {
  const requested = orderBy.length > 0 ? orderBy : [{ field: 'started_at', direction: 'desc' } as const];
  return requested.filter((order, index) => requested.findIndex((o) => o.field === order.field) === index);
}

const listsByOrder = new Map<
  string,
  PagedListStatements<ChargingSessionListFilter, ListedChargingSessionRow>
>();

/**
 * The tenant's sessions in `orderBy` (see chargingSessionListOrder), by page number or by cursor. The default, newest
 * start first, is the order of charging_sessions_list_idx, so a page by cursor starts in the index at its key. Sorted
 * by created_at first, pages end at the visibility horizon; started_at comes with the event, which no horizon bounds.
 */
export function chargingSessionsList(
  orderBy: readonly ChargingSessionOrder[],
): PagedListStatements<ChargingSessionListFilter, ListedChargingSessionRow> {
  const order = chargingSessionListOrder(orderBy);
  const name = order.map((o) => `${o.direction === 'asc' ? '+' : '-'}${o.field}`).join(',');
  let statements = listsByOrder.get(name);
  if (!statements) {
    statements = pagedListStatements<ChargingSessionListFilter, ListedChargingSessionRow>({
      name: `charging-sessions.list(${name})`,
      select: LISTED_COLUMNS,
      from: LISTED_SESSIONS,
      filterParameters: LIST_FILTER_PARAMETERS,
      horizon: order[0].field === 'created_at' ? chargingSessionsVisibilityHorizon : undefined,
      key: [
        ...order.flatMap(sortFieldKey),
        {
          column: 'session.uuid',
          parameter: 'cursorUuid',
          type: 'uuid',
          order: order[0].direction === 'asc' ? 'ASC' : 'DESC',
        },
      ],
    });
    listsByOrder.set(name, statements);
  }
  return statements;
}

/** For the SQL snapshots. */
export const CHARGING_SESSIONS_STATEMENTS = [
  recordChargingSessionStart,
  recordChargingSessionLocation,
  lockPlugAssignment,
  supersedeOlderSessions,
  endReusedTransactionSessions,
  lockMeterSummaries,
  resummarizeReusedTransaction,
  findControllersWithOpenSessions,
  markSessionsRebooted,
  endSessionsRebootedOnConnector,
  recordChargingSessionMeterValue,
  recordChargingSessionIdTag,
  recordChargingSessionEnd,
  setChargingSessionPlug,
  findChargingSessionTarget,
  findChargingSessionSamples,
  SESSION_INSERTS_TRANSACTION_MARK,
  chargingSessionsVisibilityHorizon,
  ...chargingSessionsList([]).all,
  ...chargingSessionsList([{ field: 'started_at', direction: 'asc' }]).all,
  ...chargingSessionsList([{ field: 'created_at', direction: 'desc' }]).all,
  ...chargingSessionsList([{ field: 'created_at', direction: 'asc' }]).all,
];
