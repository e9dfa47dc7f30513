import type { TransactionalOutbox } from '@cpc/database';
import { moveCountsSql } from '../command-counts.js';
import { isoSecondsSql } from '../command-record.js';
import { OPEN, OPEN_BY_UUID } from '../open-commands.js';

/** A row of transitionBatchSql's result: a command the batch changed. */
export interface AppliedRow {
  uuid: string;
  /** It went pending → sent in this batch (whether or not it also ended). */
  passed_sent: boolean;
  /** It reached a terminal status in this batch. */
  ended: boolean;
  /**
   * It ended and another open command of its charge point, not in this batch, was there when the batch began: its
   * lane has a next command to claim (one created later was not leased, so its creation woke the dispatcher).
   */
  lane_waiting: boolean;
}

/**
 * `UPDATE … SET next_attempt_at = now` for the open commands of the lanes (charge points) `controllerUuids` (an SQL
 * query of uuids) that wait for a later time, except those `except` yields (an SQL query of uuids): an ended
 * command's lane moves on now. Rows another transaction holds are skipped rather than waited for: they become due at
 * their time anyway. Each lane is searched on its own (a lateral subquery runs once per lane, with the lane as its
 * index key), whatever the planner believes of the number of open commands. "Later" is compared with now() (the
 * transaction's start), which the lane index can search, not clock_timestamp(): with that, each lane's whole
 * backlog was read (1.1 ms a lane with 150 waiting, most of a batch's time).
 */
export function wakeLanesSql(controllerUuids: string, except?: string): string {
  return `UPDATE control.commands SET next_attempt_at = clock_timestamp()
           WHERE uuid IN (SELECT waiting.uuid
                            FROM (SELECT DISTINCT lane_uuid FROM (${controllerUuids}) AS lanes(lane_uuid)) AS lane
                            CROSS JOIN LATERAL (
                              SELECT uuid FROM control.commands
                               WHERE controller_uuid = lane.lane_uuid AND ${OPEN} AND next_attempt_at > now()
                                     ${except === undefined ? '' : `AND uuid NOT IN (${except})`}
                               FOR UPDATE SKIP LOCKED) AS waiting)`;
}

/**
 * A batch of status changes as one statement, so a batch costs one round trip and one commit. Parameters, one array
 * element per command: $1 uuid, $2 whether its call went out (pending → sent), $3 when (null: now), $4 its terminal
 * status (null: none), $5 its result, $6 and $7 the event ids of its sent and ending events; $8 the events' subject.
 *
 * Steps, in the order their locks are taken:
 * 1. `locked`: the open commands, locked in uuid order (batches never wait for each other in a circle).
 * 2. `changed`: each becomes `sent` and/or reaches its ending. Guarded by the status read under the lock, so a
 *    command never moves backwards or out of a terminal status.
 * 3. `woken`: the lanes of the ended commands (their next commands may have been waiting for a later time).
 * 4. `events`: the status events (CommandStatusChangedEvent, as statusChangedEvent builds them), each sent event
 *    before the ending event of the same batch.
 * 5. `counted`: the counts moved, last (they are what creations wait for), in the global lock order.
 */
export function transitionBatchSql(outbox: Pick<TransactionalOutbox, 'insertSql'>): string {
  return `
    WITH input AS (
      SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::varchar[], $5::jsonb[], $6::uuid[],
                           $7::uuid[])
             WITH ORDINALITY AS x(uuid, wants_sent, sent_at, ending, result, sent_event_id, ending_event_id,
                                  position)
    ), locked AS (
      SELECT uuid, status FROM control.commands
       WHERE uuid IN (SELECT uuid FROM input) AND ${OPEN_BY_UUID}
       ORDER BY uuid FOR UPDATE
    ), changed AS (
      UPDATE control.commands c
         SET status = COALESCE(i.ending, 'sent'),
             sent_at = CASE WHEN l.status = 'pending' AND i.wants_sent
                            THEN COALESCE(i.sent_at, clock_timestamp()) ELSE c.sent_at END,
             result = CASE WHEN i.ending IS NULL THEN c.result ELSE i.result END,
             completed_at = CASE WHEN i.ending IS NULL THEN c.completed_at ELSE clock_timestamp() END,
             next_attempt_at = CASE WHEN i.ending IS NULL THEN c.next_attempt_at END,
             lease_owner = CASE WHEN i.ending IS NULL THEN c.lease_owner END,
             lease_until = CASE WHEN i.ending IS NULL THEN c.lease_until END
        FROM locked l JOIN input i ON i.uuid = l.uuid
       WHERE c.uuid = l.uuid AND c.${OPEN_BY_UUID}
         AND (i.ending IS NOT NULL OR (i.wants_sent AND l.status = 'pending'))
      RETURNING c.uuid, c.tenant_uuid, c.controller_uuid, c.type, c.target_type, c.target_uuid, c.status, c.result,
                c.created_at, c.completed_at, l.status AS previous, (l.status = 'pending' AND i.wants_sent) AS passed_sent,
                i.ending IS NOT NULL AS ended, i.sent_event_id, i.ending_event_id, i.position
    ), woken AS (
      ${wakeLanesSql('SELECT controller_uuid FROM changed WHERE ended', 'SELECT uuid FROM input')}
    ), steps AS (
      SELECT c.*, 'pending' AS step_from, 'sent' AS step_to, NULL::jsonb AS step_result,
             NULL::timestamptz AS step_completed_at, c.sent_event_id AS event_id, 1 AS phase
        FROM changed c WHERE c.passed_sent
      UNION ALL
      SELECT c.*, CASE WHEN c.passed_sent THEN 'sent' ELSE c.previous END, c.status, c.result, c.completed_at,
             c.ending_event_id, 2
        FROM changed c WHERE c.ended
    ), events AS (
      ${outbox.insertSql(`
        SELECT s.event_id, s.tenant_uuid, $8,
               jsonb_build_object(
                 'eventId', s.event_id,
                 'occurredAt', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'tenantUuid', s.tenant_uuid,
                 'data', jsonb_build_object(
                   'command', jsonb_build_object(
                     'command_uuid', s.uuid, 'target_type', s.target_type, 'target_uuid', s.target_uuid,
                     'type', s.type, 'status', s.step_to, 'result', s.step_result,
                     'created_at', ${isoSecondsSql('s.created_at')},
                     'completed_at', ${isoSecondsSql('s.step_completed_at')}),
                   'previousStatus', s.step_from,
                   'controllerUuid', s.controller_uuid)),
               clock_timestamp() + (row_number() OVER (ORDER BY s.phase, s.position) - 1) * interval '1 microsecond'
          FROM steps s`)}
    ), counted AS (
      ${moveCountsSql(`
        SELECT tenant_uuid, target_type, type, previous, uuid, -1 FROM changed
        UNION ALL
        SELECT tenant_uuid, target_type, type, status, uuid, 1 FROM changed`)}
    )
    SELECT c.uuid, c.passed_sent, c.ended,
           c.ended AND EXISTS (SELECT FROM control.commands w
                                WHERE w.controller_uuid = c.controller_uuid AND w.${OPEN}
                                  AND w.uuid NOT IN (SELECT uuid FROM input)) AS lane_waiting
      FROM changed c, counted`;
}
