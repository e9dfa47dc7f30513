import { pagedListStatements, sqlStatement } from '@cpc/database';

/**
 * The statements of control.meter_values and of the meter summary on control.charging_sessions. Writes take whole
 * batches as arrays (one row per array index), so one statement stores the samples of many events.
 */

/** Samples of many events; a sample already stored (same event, same index) is skipped. */
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
  sql: `INSERT INTO control.meter_values
              (tenant_uuid, controller_uuid, ocpp_transaction_id, evse_id, connector_id, sampled_at, measurand, phase,
               location, unit, context, value, event_id, sample_index)
       SELECT * FROM unnest(:tenantUuids::uuid[], :controllerUuids::uuid[], :transactionIds::varchar[], :evseIds::integer[],
                            :connectorIds::integer[], :sampledAts::timestamptz[], :measurands::text[], :phases::text[],
                            :locations::text[], :units::text[], :contexts::text[], :values::float8[], :eventIds::uuid[],
                            :sampleIndexes::integer[])
       ON CONFLICT DO NOTHING`,
});

/**
 * The meter summary of many sessions, one row per session: the peak power and the latest sample only ever grow. Like
 * every session write it is an upsert, so samples that arrive before the start still count. Its transaction is marked
 * as inserting sessions before it (SESSION_INSERTS_TRANSACTION_MARK), and a new session is stamped by its start.
 */
export const recordSessionMeterSummaries = sqlStatement<{
  uuids: string[];
  tenantUuids: string[];
  controllerUuids: string[];
  transactionIds: string[];
  peakPowersW: (number | null)[];
  lastSampleAts: string[];
}>({
  name: 'meter-values.record-session-summaries',
  parameters: ['uuids', 'tenantUuids', 'controllerUuids', 'transactionIds', 'peakPowersW', 'lastSampleAts'],
  sql: `INSERT INTO control.charging_sessions AS s
              (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, peak_power_w, last_sample_at, created_at,
               updated_at)
       SELECT *, statement_timestamp(), statement_timestamp()
         FROM unnest(:uuids::uuid[], :tenantUuids::uuid[], :controllerUuids::uuid[], :transactionIds::varchar[],
                     :peakPowersW::numeric[], :lastSampleAts::timestamptz[])
       ON CONFLICT (tenant_uuid, controller_uuid, ocpp_transaction_id) DO UPDATE SET
         peak_power_w = GREATEST(s.peak_power_w, EXCLUDED.peak_power_w),
         last_sample_at = GREATEST(s.last_sample_at, EXCLUDED.last_sample_at),
         updated_at = now()`,
});

/** The filters of a session's meter values. */
interface SessionMeterValuesFilter {
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
  measurand: string | null;
  sampledFrom: string | null;
  sampledTo: string | null;
}

const SESSION_METER_VALUES = `FROM control.meter_values
        WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid AND ocpp_transaction_id = :transactionId
          AND (:measurand::text IS NULL OR measurand = :measurand::text)
          AND (:sampledFrom::timestamptz IS NULL OR sampled_at >= :sampledFrom::timestamptz)
          AND (:sampledTo::timestamptz IS NULL OR sampled_at < :sampledTo::timestamptz)`;

const FILTER_PARAMETERS = [
  'tenantUuid',
  'controllerUuid',
  'transactionId',
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
