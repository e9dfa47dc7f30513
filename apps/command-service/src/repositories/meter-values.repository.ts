import { pagedListStatements, sqlStatement } from '@cpc/database';
import { INFERRED_STOP_REASONS } from './charging-sessions.repository.js';
import {
  meterSummaryLockKey,
  peakPowerW,
  rangeHolds,
  transactionSessions,
} from './transaction-session-ranges.js';

const INFERRED = `'${INFERRED_STOP_REASONS.superseded}', '${INFERRED_STOP_REASONS.chargePointRebooted}'`;

/**
 * The statements of control.meter_values and of the meter summary on control.charging_sessions. Writes take whole
 * batches as arrays (one row per array index), so one statement stores the samples of many events.
 */

/**
 * Samples of many events; a sample already stored (same event, same index) is skipped. First it takes the meter
 * summary lock of each transaction id among them (meterSummaryLockKey), in one order, held to the commit.
 */
export const insertMeterSamples = sqlStatement<{
  tenantUuids: string[];
  controllerUuids: string[];
  transactionIds: (string | null)[];
  evseIds: (number | null)[];
  connectorIds: (number | null)[];
  sampledAts: string[];
  measurands: string[];
  phases: (string | null)[];
  locations: string[];
  units: string[];
  contexts: string[];
  values: number[];
  eventIds: string[];
  sampleIndexes: number[];
}>({
  name: 'meter-values.insert',
  parameters: [
    'tenantUuids',
    'controllerUuids',
    'transactionIds',
    'evseIds',
    'connectorIds',
    'sampledAts',
    'measurands',
    'phases',
    'locations',
    'units',
    'contexts',
    'values',
    'eventIds',
    'sampleIndexes',
  ],
  sql: `WITH summaries_locked AS MATERIALIZED (
         SELECT count(pg_advisory_xact_lock(transaction.lock_key)) AS locks
           FROM (SELECT DISTINCT ${meterSummaryLockKey('t.tenant_uuid', 't.controller_uuid', 't.transaction_id')} AS lock_key
                   FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[], :transactionIds::varchar[])
                        AS t(tenant_uuid, controller_uuid, transaction_id)
                  WHERE t.transaction_id IS NOT NULL
                  ORDER BY 1) AS transaction)
       INSERT INTO control.meter_values
              (tenant_uuid, controller_uuid, ocpp_transaction_id, evse_id, connector_id, sampled_at, measurand, phase,
               location, unit, context, value, event_id, sample_index)
       SELECT * FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[], :transactionIds::varchar[], :evseIds::integer[],
                            :connectorIds::integer[], :sampledAts::timestamptz[], :measurands::text[], :phases::text[],
                            :locations::text[], :units::text[], :contexts::text[], :values::float8[], :eventIds::uuid[],
                            :sampleIndexes::integer[])
        WHERE (SELECT locks FROM summaries_locked) IS NOT NULL
       ON CONFLICT DO NOTHING`,
});

/**
 * The meter summary of many sessions from the sampled values of many events (one row per value; those without a
 * transaction id count for none): the peak power and the latest sample only ever grow. Each value counts for the
 * session of its transaction id whose range holds its time (transaction-session-ranges.ts), except one well after
 * the charge point's own end of that session (more than a meter's clock is off by): a value of a later transaction
 * with that id whose start is not heard yet, counted once it is (resummarizeReusedTransaction, which also takes back
 * one counted within that margin). Like every session write it is an upsert, so values that arrive
 * before the start still count: a transaction id without a session gets one, with :uuids, the uuid derived from the
 * id. Its transaction is marked as inserting sessions before it (SESSION_INSERTS_TRANSACTION_MARK), and a new session
 * is stamped by its start. Sessions are written in one order (by transaction id, as bytes, then uuid), so two batches
 * never wait on each other's rows.
 */
export const recordSessionMeterSummaries = sqlStatement<{
  uuids: (string | null)[];
  tenantUuids: string[];
  controllerUuids: string[];
  transactionIds: (string | null)[];
  sampledAts: string[];
  measurands: string[];
  phases: (string | null)[];
  units: string[];
  values: number[];
}>({
  name: 'meter-values.record-session-summaries',
  parameters: [
    'uuids',
    'tenantUuids',
    'controllerUuids',
    'transactionIds',
    'sampledAts',
    'measurands',
    'phases',
    'units',
    'values',
  ],
  sql: `INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, peak_power_w, last_sample_at, created_at,
               updated_at)
       SELECT COALESCE(session.uuid, sampled.first_uuid), sampled.tenant_uuid, sampled.controller_uuid,
              sampled.ocpp_transaction_id, max(sampled.peak_power_w), max(sampled.sampled_at), statement_timestamp(),
              statement_timestamp()
         FROM (SELECT first_uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, sampled_at,
                      max(${peakPowerW('sample')}) AS peak_power_w
                 FROM unnest(:uuids::uuid[], :tenantUuids::uuid[], :controllerUuids::uuid[], :transactionIds::varchar[],
                             :sampledAts::timestamptz[], :measurands::text[], :phases::text[], :units::text[],
                             :values::float8[])
                      AS sample(first_uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, sampled_at, measurand,
                                phase, unit, value)
                WHERE ocpp_transaction_id IS NOT NULL
                GROUP BY 1, 2, 3, 4, 5) AS sampled
         LEFT JOIN LATERAL (
           SELECT r.uuid, r.stopped_at, r.stop_reason
             FROM (${transactionSessions(
               'sampled.tenant_uuid',
               'sampled.controller_uuid',
               'sampled.ocpp_transaction_id',
             )}) r
            WHERE ${rangeHolds('r', 'sampled.sampled_at')}) AS session ON true
        WHERE session.uuid IS NULL OR session.stopped_at IS NULL
           OR session.stopped_at + interval '5 minutes' >= sampled.sampled_at
           OR session.stop_reason IN (${INFERRED})
        GROUP BY 1, 2, 3, 4
        ORDER BY sampled.tenant_uuid, sampled.controller_uuid, sampled.ocpp_transaction_id COLLATE "C",
                 COALESCE(session.uuid, sampled.first_uuid)
       ON CONFLICT (uuid) DO UPDATE SET
         peak_power_w = GREATEST(s.peak_power_w, EXCLUDED.peak_power_w),
         last_sample_at = GREATEST(s.last_sample_at, EXCLUDED.last_sample_at),
         updated_at = now()`,
});

/**
 * The filters of a session's meter values: its transaction id's, in its range (`samplesFrom` / `samplesTo`, null:
 * unbounded; findChargingSessionSamples), and those the API asks for.
 */
interface SessionMeterValuesFilter {
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  samplesFrom: Date | null;
  samplesTo: Date | null;
  measurand: string | null;
  sampledFrom: string | null;
  sampledTo: string | null;
}

const SESSION_METER_VALUES = `FROM control.meter_values
        WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid AND ocpp_transaction_id = :transactionId
          AND (:samplesFrom::timestamptz IS NULL OR sampled_at >= :samplesFrom::timestamptz)
          AND (:samplesTo::timestamptz IS NULL OR sampled_at < :samplesTo::timestamptz)
          AND (:measurand::text IS NULL OR measurand = :measurand::text)
          AND (:sampledFrom::timestamptz IS NULL OR sampled_at >= :sampledFrom::timestamptz)
          AND (:sampledTo::timestamptz IS NULL OR sampled_at < :sampledTo::timestamptz)`;

const FILTER_PARAMETERS = [
  'tenantUuid',
  'controllerUuid',
  'transactionId',
  'samplesFrom',
  'samplesTo',
  'measurand',
  'sampledFrom',
  'sampledTo',
] as const;

export interface MeterValueRow {
  sampled_at: Date;
  measurand: string;
  phase: string | null;
  location: string;
  unit: string;
  context: string;
  value: number;
  evse_id: number | null;
  connector_id: number | null;
}

/**
 * A session's meter values, oldest first (ties: the event, then the sample's place in it), by page number or by
 * cursor; the key is the tail of meter_values_transaction_idx's order plus the event's sample, read within one
 * session's range.
 */
export const sessionMeterValuesList = pagedListStatements<SessionMeterValuesFilter, MeterValueRow>({
  name: 'meter-values.list-of-session',
  select: 'sampled_at, measurand, phase, location, unit, context, value, evse_id, connector_id',
  from: SESSION_METER_VALUES,
  filterParameters: FILTER_PARAMETERS,
  key: [
    { column: 'sampled_at', parameter: 'cursorAt', type: 'timestamptz', order: 'ASC' },
    { column: 'event_id', parameter: 'cursorEvent', type: 'uuid', order: 'ASC' },
    { column: 'sample_index', parameter: 'cursorIndex', type: 'bigint', order: 'ASC' },
  ],
});

/** For the SQL snapshots. */
export const METER_VALUES_STATEMENTS = [
  insertMeterSamples,
  recordSessionMeterSummaries,
  ...sessionMeterValuesList.all,
];
