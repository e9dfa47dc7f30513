/**
 * SQL fragments that tell which charging session an event or a sampled value of a transaction id belongs to. A charge
 * point may use a transaction id again (2.0.1 ids are its own; one that reboots may count from 1 again), so an id
 * can have several sessions, one per start, and the events after the start carry only a time, never the start they
 * belong to. Each session of an id takes the times from its start to the next session's start; the first one (the
 * one whose start is not known yet, else the earliest started) also takes everything before, as when an id had a
 * single session. Every writer and reader goes by these ranges, so events and meter values land where the list of a
 * session's meter values shows them, whatever order they come in.
 */

/**
 * The sessions of transaction id `transactionId` of the controller, each with the range of times that are its own:
 * `samples_from` (inclusive) to `samples_to` (exclusive), null where unbounded. The arguments are SQL expressions.
 */
export function transactionSessions(
  tenantUuid: string,
  controllerUuid: string,
  transactionId: string,
): string {
  return `SELECT o.uuid, o.started_at, o.stopped_at, o.stop_reason, o.rebooted_at, o.last_sample_at,
                CASE WHEN row_number() OVER by_start > 1 THEN o.started_at END AS samples_from,
                lead(o.started_at) OVER by_start AS samples_to
           FROM control.charging_sessions o
          WHERE o.tenant_uuid = ${tenantUuid} AND o.controller_uuid = ${controllerUuid}
            AND o.ocpp_transaction_id = ${transactionId}
         WINDOW by_start AS (ORDER BY o.started_at NULLS FIRST)`;
}

/** Whether the range of a row of transactionSessions (alias `range`) holds the time `at`. */
export function rangeHolds(range: string, at: string): string {
  return `(${range}.samples_from IS NULL OR ${range}.samples_from <= ${at})
            AND (${range}.samples_to IS NULL OR ${at} < ${range}.samples_to)`;
}

/** The uuid of the session of the transaction id whose range holds `at`; none while the id has no session. */
export function transactionSessionAt(
  tenantUuid: string,
  controllerUuid: string,
  transactionId: string,
  at: string,
): string {
  return `SELECT r.uuid FROM (${transactionSessions(tenantUuid, controllerUuid, transactionId)}) r
          WHERE ${rangeHolds('r', at)} LIMIT 1`;
}

/**
 * The power of a sampled value (alias `sample`: measurand, phase, unit, value) that counts towards a session's peak,
 * in W: a Power.Active.Import of the whole charger (no phase) in W or kW; null for any other value, and for one
 * beyond what numeric(16, 3) holds (10 TW), which only a broken meter reports.
 */
export function peakPowerW(sample: string): string {
  const watts = `${sample}.value * CASE ${sample}.unit WHEN 'kW' THEN 1000 ELSE 1 END`;
  return `CASE WHEN ${sample}.measurand = 'Power.Active.Import' AND ${sample}.phase IS NULL
                AND ${sample}.unit IN ('W', 'kW') AND abs(round((${watts})::numeric, 3)) < 1e13
           THEN ${watts} END`;
}

/**
 * The advisory lock key (a bigint SQL expression) of a transaction id's meter summaries. A batch of meter values holds
 * it from its first statement to its commit, and the summaries made again after a start of a reused id are made once
 * it is held: otherwise a batch that read the sessions before the new start committed, and committed after the
 * summaries were made again, counted its values for no session (`transaction-id-reuse.integration.spec.ts`).
 */
export function meterSummaryLockKey(
  tenantUuid: string,
  controllerUuid: string,
  transactionId: string,
): string {
  return `hashtextextended(${tenantUuid}::text || '/' || ${controllerUuid}::text || '/' || ${transactionId}
                           || '/meter-summary', 0)`;
}
