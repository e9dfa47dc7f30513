import type { CommandView } from '@cpc/contracts';
import { insertMarker, outboxInsertSql, sqlStatement, visibilityHorizonStatement } from '@cpc/database';
import { cursorTimeSql, type KeysetColumn, keysetPredicate } from '@cpc/pagination';
import type { ClaimedCommand, CommandRow, StoredCommand } from '../commands/command-row.js';
import { countCreatedBatchSql, moveCountsSql } from './command-counts.repository.js';
import { claimIdempotencyKeySql } from './idempotency-keys.repository.js';

/**
 * The statements of control.commands (with what they write besides in the same statement: status events into the
 * outbox, count rows, the idempotency key). Each is checked in as finished SQL under src/queries/ (see
 * sql-snapshots.ts).
 */

/** The transactional outbox's table (its columns: see TransactionalOutboxOptions). */
export const CONTROL_OUTBOX_TABLE = 'control.outbox_events';

/**
 * How statements pick out open commands (pending or sent). Two spellings of the same rows, because the planner
 * treats them differently.
 *
 * OPEN is the predicate of the partial indexes over open commands (`commands_open_*`): a statement that looks for
 * open commands by lane or by due time says this, so that those indexes can answer it.
 */
export const OPEN = `status IN ('pending', 'sent')`;

/**
 * The same rows (CHECK `commands_completed_when_terminal`), for statements that look commands up by uuid: this does
 * not match the partial indexes' predicate, so the lookup can only go through the primary key. Statistics taken
 * while no command was open make those indexes look empty; a statement saying OPEN then scanned one of them whole
 * for every uuid it looked up, which grows with the backlog (1,000 commands/s offered after 1,000,000 ended ones:
 * 994 terminal/s fell to 334, with the batch statements and claims taking 0.3–1.4 s).
 */
export const OPEN_BY_UUID = `completed_at IS NULL`;

/** For SELECT and RETURNING clauses: the columns of a CommandRow. */
export const COMMAND_ROW_COLUMNS = [
  'uuid',
  'tenant_uuid',
  'controller_uuid',
  'type',
  'target_type',
  'target_uuid',
  'status',
  'result',
  'created_at',
  'completed_at',
].join(', ');

/** isoSeconds in SQL, for events PostgreSQL builds: `column` (a timestamptz expression) as the view writes it. */
export function isoSecondsSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

const outboxInsert = (select: string) => outboxInsertSql(CONTROL_OUTBOX_TABLE, select);

// ---------------------------------------------------------------------------------------------------------------
// Delivery: claims, leases, lanes.

/** The columns of a ClaimedCommand besides its uuid. */
const CLAIMED_COMMAND_COLUMNS = [
  'tenant_uuid',
  'controller_uuid',
  'type',
  'target_type',
  'target_uuid',
  'target',
  'parameters',
  'status',
  'valid_until',
  'created_at',
  'target_deleted_at',
  'traceparent',
] as const;

/** CLAIMED_COMMAND_COLUMNS of the table aliased `alias`. */
function claimedCommandColumns(alias: string): string {
  return CLAIMED_COMMAND_COLUMNS.map((column) => `${alias}.${column}`).join(', ');
}

/**
 * Claims up to :limit lane heads for :owner, for :leaseMs, of lanes that have a due command and no claimed one; SKIP
 * LOCKED keeps instances apart. The lanes are found by skipping from one charge point to the next in
 * commands_open_lane_due_idx (a probe per lane, not a read of every due command); each lane's head and whether the
 * lane is busy are probes of that lane alone (subqueries run per lane, which the planner cannot turn into scans of
 * every open command), and the heads are then locked through the primary key (OPEN_BY_UUID). Times are `now()` (the
 * statement's start), not clock_timestamp(), so the index can be searched by time. A claimed command is due again only
 * when its lease ends (a lapsed claim is taken up then), so the walk passes over lanes whose only open command is
 * being delivered (at 500/s, index scans of control.commands fell from 63,000 to 17,000 in 10 s). The :limit oldest
 * heads this statement could lock are then confirmed by control.lane_is_free, as a creation leasing its command
 * confirms its lane: a lane that a creation is leasing right now is passed over (its new command may be invisible to
 * this statement's snapshot).
 */
export const claimDueCommands = sqlStatement<
  { owner: string; leaseMs: number; limit: number },
  ClaimedCommand
>({
  name: 'commands.claim-due',
  prepared: true,
  parameters: ['owner', 'leaseMs', 'limit'],
  sql: `WITH RECURSIVE due_lanes AS (
       (SELECT controller_uuid FROM control.commands
         WHERE ${OPEN} AND next_attempt_at <= now() ORDER BY controller_uuid LIMIT 1)
       UNION ALL
       SELECT (SELECT c.controller_uuid FROM control.commands c
                WHERE c.${OPEN} AND c.next_attempt_at <= now() AND c.controller_uuid > lane.controller_uuid
                ORDER BY c.controller_uuid LIMIT 1)
         FROM due_lanes lane WHERE lane.controller_uuid IS NOT NULL
     ), heads AS MATERIALIZED (
       SELECT lane.controller_uuid,
              (SELECT h.uuid FROM control.commands h
                WHERE h.controller_uuid = lane.controller_uuid AND h.${OPEN}
                ORDER BY h.created_at, h.uuid LIMIT 1) AS uuid,
              EXISTS (SELECT 1 FROM control.commands other
                       WHERE other.controller_uuid = lane.controller_uuid AND other.${OPEN}
                         AND other.lease_until >= now()) AS busy
         FROM due_lanes lane WHERE lane.controller_uuid IS NOT NULL
     ), candidates AS MATERIALIZED (
       SELECT c.controller_uuid, c.uuid FROM control.commands c
        WHERE c.uuid IN (SELECT uuid FROM heads WHERE NOT busy) AND c.${OPEN_BY_UUID}
          AND (c.lease_until IS NULL OR c.lease_until < now())
        ORDER BY c.created_at
        LIMIT :limit
        FOR UPDATE SKIP LOCKED
     ), claimable AS MATERIALIZED (
       SELECT uuid FROM candidates WHERE control.lane_is_free(controller_uuid, uuid)
     ), lease AS (
       SELECT clock_timestamp() + :leaseMs * interval '1 millisecond' AS until
     )
     UPDATE control.commands c
        SET lease_owner = :owner, lease_until = lease.until, next_attempt_at = lease.until, attempts = c.attempts + 1
       FROM claimable, lease
      WHERE c.uuid = claimable.uuid
     RETURNING c.uuid, ${claimedCommandColumns('c')}`,
});

/**
 * Keeps :owner's claims alive, and not due before they end (as a claim leaves them). Rows are locked in uuid order, as
 * the transitions' batches lock them, so the two never wait for each other in a circle.
 */
export const renewCommandLeases = sqlStatement<{ owner: string; commandUuids: string[]; leaseMs: number }>({
  name: 'commands.renew-leases',
  parameters: ['owner', 'commandUuids', 'leaseMs'],
  sql: `UPDATE control.commands c SET lease_until = lease.until, next_attempt_at = lease.until
         FROM (SELECT clock_timestamp() + :leaseMs * interval '1 millisecond' AS until) AS lease
        WHERE c.uuid IN (SELECT uuid FROM control.commands
                          WHERE uuid = ANY(:commandUuids) AND lease_owner = :owner AND ${OPEN_BY_UUID} ORDER BY uuid FOR UPDATE)`,
});

/**
 * Gives a claim back, due again after :delayMs. :unconfirmed: the request went unanswered, so the call may have gone
 * out.
 */
export const releaseCommandClaim = sqlStatement<{
  owner: string;
  commandUuid: string;
  delayMs: number;
  unconfirmed: boolean;
}>({
  name: 'commands.release',
  parameters: ['owner', 'commandUuid', 'delayMs', 'unconfirmed'],
  sql: `UPDATE control.commands
          SET lease_owner = NULL, lease_until = NULL,
              next_attempt_at = clock_timestamp() + :delayMs * interval '1 millisecond',
              delivery_unconfirmed_at = CASE WHEN :unconfirmed THEN COALESCE(delivery_unconfirmed_at, clock_timestamp())
                                             ELSE delivery_unconfirmed_at END
        WHERE uuid = :commandUuid AND lease_owner = :owner AND ${OPEN_BY_UUID}`,
});

/** Gives back these claims of :owner at once (shutdown), due again now for whoever takes them. */
export const releaseCommandClaims = sqlStatement<{ owner: string; commandUuids: string[] }>({
  name: 'commands.release-all',
  parameters: ['owner', 'commandUuids'],
  sql: `UPDATE control.commands SET lease_owner = NULL, lease_until = NULL, next_attempt_at = clock_timestamp()
        WHERE uuid IN (SELECT uuid FROM control.commands
                        WHERE uuid = ANY(:commandUuids) AND lease_owner = :owner AND ${OPEN_BY_UUID} ORDER BY uuid FOR UPDATE)`,
});

/** Gives back the claims of every owner but :owner whose name starts with :prefix (earlier processes on a host). */
export const releaseHostCommandClaims = sqlStatement<{ prefix: string; owner: string }>({
  name: 'commands.release-host',
  parameters: ['prefix', 'owner'],
  sql: `UPDATE control.commands SET lease_owner = NULL, lease_until = NULL, next_attempt_at = clock_timestamp()
        WHERE ${OPEN} AND lease_until IS NOT NULL AND starts_with(lease_owner, :prefix) AND lease_owner <> :owner`,
});

/**
 * Locks the pending commands of an offline lane that end now: validity over, or target deleted meanwhile; those
 * claimed by others are left to them (:headUuid is :owner's own claim).
 */
export const lockEndingOfflineCommands = sqlStatement<
  { controllerUuid: string; headUuid: string; owner: string },
  { uuid: string; unconfirmed: boolean; deleted: boolean }
>({
  name: 'commands.lock-ending-offline',
  parameters: ['controllerUuid', 'headUuid', 'owner'],
  sql: `SELECT uuid, delivery_unconfirmed_at IS NOT NULL AS unconfirmed, target_deleted_at IS NOT NULL AS deleted
           FROM control.commands
          WHERE controller_uuid = :controllerUuid AND status = 'pending'
            AND (valid_until <= clock_timestamp() OR target_deleted_at IS NOT NULL)
            AND (lease_until IS NULL OR lease_until < clock_timestamp() OR (uuid = :headUuid AND lease_owner = :owner))
          FOR UPDATE`,
});

/**
 * An offline lane waits for its charge point: due again after :recheckMs at the latest, or when the first validity
 * ends; :owner's claim in it is given back.
 */
export const deferOfflineLane = sqlStatement<{ controllerUuid: string; recheckMs: number; owner: string }>({
  name: 'commands.defer-offline-lane',
  parameters: ['controllerUuid', 'recheckMs', 'owner'],
  sql: `UPDATE control.commands
            SET next_attempt_at = LEAST(valid_until, clock_timestamp() + :recheckMs * interval '1 millisecond'),
                lease_owner = CASE WHEN lease_owner = :owner THEN NULL ELSE lease_owner END,
                lease_until = CASE WHEN lease_owner = :owner THEN NULL ELSE lease_until END
          WHERE controller_uuid = :controllerUuid AND ${OPEN}`,
});

/** Waits for a later time and is not being delivered (no lease, or a lapsed one). */
const WAITING_UNLEASED = `next_attempt_at > now() AND (lease_until IS NULL OR lease_until < clock_timestamp())`;

/**
 * The charge points :controllerUuids connected (again): every open command of their lanes that waits for a later time
 * is due now, except one being delivered (its lease still running: it stays due at the lease's end, as claims leave
 * it); returns those it made due. One statement for a batch of connected events: a reconnect storm connects every
 * charge point at once, and one statement per event spent 15 times longer being planned than running.
 *
 * Each lane is searched on its own, with its controller as index key, whatever the planner believes of the number of
 * lanes or of open commands (see wakeLanesSql; OFFSET 0 keeps the lateral subquery from being merged into a join,
 * which scanned the waiting commands of every lane). The rows found are then locked through the primary key in uuid
 * order, as the transitions' batches and renewals lock them, so those never wait for each other in a circle. A row
 * another transaction holds is waited for, not skipped (unlike wakeLanesSql): it may be an attempt deferring the lane
 * because it found the charge point offline a moment ago, and the connection must win over that deferral rather than
 * leave the lane to its recheck. The lock reads the row again once it is free, so a command claimed meanwhile keeps
 * its lease.
 */
export const wakeConnectedLanes = sqlStatement<{ controllerUuids: string[] }, { uuid: string }>({
  name: 'commands.wake-connected-lanes',
  parameters: ['controllerUuids'],
  sql: `WITH waiting AS (
         SELECT waiting.uuid
           FROM (SELECT DISTINCT lane_uuid FROM unnest(:controllerUuids::uuid[]) AS lanes(lane_uuid)) AS lane
           CROSS JOIN LATERAL (
             SELECT uuid FROM control.commands
              WHERE controller_uuid = lane.lane_uuid AND ${OPEN} AND ${WAITING_UNLEASED}
             OFFSET 0) AS waiting
       ), locked AS (
         SELECT uuid FROM control.commands
          WHERE uuid IN (SELECT uuid FROM waiting) AND ${OPEN_BY_UUID} AND ${WAITING_UNLEASED}
          ORDER BY uuid FOR UPDATE
       )
       UPDATE control.commands SET next_attempt_at = clock_timestamp()
        WHERE uuid IN (SELECT uuid FROM locked)
       RETURNING uuid`,
});

/** Locks a deleted controller's pending commands that nobody is delivering. */
export const lockIdleCommandsOfController = sqlStatement<
  { tenantUuid: string; controllerUuid: string },
  { uuid: string }
>({
  name: 'commands.lock-idle-of-controller',
  parameters: ['tenantUuid', 'controllerUuid'],
  sql: `SELECT uuid FROM control.commands
          WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid AND status = 'pending'
            AND (lease_until IS NULL OR lease_until < clock_timestamp())
          FOR UPDATE`,
});

/** Marks a deleted controller's open commands (a delivery in progress fails when it finds the mark). */
export const markCommandTargetDeleted = sqlStatement<{ tenantUuid: string; controllerUuid: string }>({
  name: 'commands.mark-target-deleted',
  parameters: ['tenantUuid', 'controllerUuid'],
  sql: `UPDATE control.commands SET target_deleted_at = COALESCE(target_deleted_at, clock_timestamp())
          WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid AND ${OPEN}`,
});

// ---------------------------------------------------------------------------------------------------------------
// Outcomes: status transitions.

/**
 * `UPDATE … SET next_attempt_at = now` for the open commands of the lanes (charge points) `controllerUuids` (an SQL
 * query of uuids) that wait for a later time, except those `except` yields (an SQL query of uuids): an ended
 * command's lane moves on now. Rows another transaction holds are skipped rather than waited for: they become due at
 * their time anyway. Each lane is searched on its own (a lateral subquery runs once per lane, with the lane as its
 * index key), whatever the planner believes of the number of open commands. "Later" is compared with now() (the
 * transaction's start), which the lane index can search, not clock_timestamp(): with that, each lane's whole
 * backlog was read (1.1 ms a lane with 150 waiting, most of a batch's time).
 */
function wakeLanesSql(controllerUuids: string, except?: string): string {
  return `UPDATE control.commands SET next_attempt_at = clock_timestamp()
           WHERE uuid IN (SELECT waiting.uuid
                            FROM (SELECT DISTINCT lane_uuid FROM (${controllerUuids}) AS lanes(lane_uuid)) AS lane
                            CROSS JOIN LATERAL (
                              SELECT uuid FROM control.commands
                               WHERE controller_uuid = lane.lane_uuid AND ${OPEN} AND next_attempt_at > now()
                                     ${except === undefined ? '' : `AND uuid NOT IN (${except})`}
                               FOR UPDATE SKIP LOCKED) AS waiting)`;
}

/** The lanes of commands that just ended move on now (wakeLanesSql). */
export const wakeCommandLanes = sqlStatement<{ controllerUuids: string[] }>({
  name: 'commands.wake-lanes',
  parameters: ['controllerUuids'],
  sql: wakeLanesSql('SELECT unnest(:controllerUuids::uuid[])'),
});

/**
 * Ends the still-pending commands among :commandUuids as failed with :result; pending is said as "open and not sent"
 * (see OPEN_BY_UUID).
 */
export const failPendingCommands = sqlStatement<
  { commandUuids: string[]; result: string },
  CommandRow & { previous: string }
>({
  name: 'commands.fail-pending',
  parameters: ['commandUuids', 'result'],
  sql: `UPDATE control.commands
            SET status = 'failed', result = :result, completed_at = clock_timestamp(),
                next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
          WHERE uuid = ANY(:commandUuids) AND ${OPEN_BY_UUID} AND status <> 'sent'
          RETURNING 'pending' AS previous, ${COMMAND_ROW_COLUMNS}`,
});

/**
 * A row of applyCommandTransitions: a command the batch changed, the next command of a lane it handed over, or a
 * command reported by a charge point that is not its own.
 */
export type AppliedTransitionRow = ChangedCommandRow | HandedOverCommandRow | ForeignReportRow;

/** A command the batch changed. */
export interface ChangedCommandRow {
  handed_over: false;
  foreign_report: false;
  uuid: string;
  tenant_uuid: string;
  controller_uuid: string;
  /** It went pending → sent in this batch (whether or not it also ended). */
  passed_sent: boolean;
  /** It reached a terminal status in this batch. */
  ended: boolean;
  /**
   * It ended and another open command of its charge point, not in this batch, was there when the batch began, and that
   * lane was not handed over: its next command is left to a claim (one created later was not leased, so its creation
   * woke the dispatcher).
   */
  lane_waiting: boolean;
}

/** The next command of a lane the batch ended a command of, leased to :leaseOwner for its dispatcher to deliver. */
export type HandedOverCommandRow = ClaimedCommand & { handed_over: true; foreign_report: false };

/** A command (open or not) whose transition the batch refused: another charge point than its own reported it. */
export interface ForeignReportRow {
  handed_over: false;
  foreign_report: true;
  uuid: string;
  passed_sent: false;
  ended: false;
  lane_waiting: false;
}

/**
 * The command `c` is of the charge point that reported its transition in the input row `i`, or nobody did (the
 * dispatcher's own reply, which comes from the command's lane itself).
 */
const REPORTED_BY_ITS_CHARGE_POINT = `(i.reporter_tenant_uuid IS NULL
         OR (c.tenant_uuid = i.reporter_tenant_uuid AND c.controller_uuid = i.reporter_controller_uuid))`;

/**
 * A batch of status changes as one statement, so a batch costs one round trip and one commit. Parameters, one array
 * element per command: :uuids, :wantsSent whether its call went out (pending → sent), :sentAts when (null: now),
 * :endings its terminal status (null: none), :results its result, :responses the charge point's answer (null:
 * none; never in the events), :reporterTenantUuids and :reporterControllerUuids the charge point whose gateway event
 * reported it (null: no check), :sentEventIds and :endingEventIds the event ids of its sent and ending events;
 * :subject the events' subject.
 *
 * Steps, in the order their locks are taken:
 * 1. `locked`: the open commands, locked in uuid order (batches never wait for each other in a circle), those
 *    reported by another charge point than their own left out (`foreign_reports`: returned, changed in no way).
 * 2. `changed`: each becomes `sent` and/or reaches its ending. Guarded by the status read under the lock, so a
 *    command never moves backwards or out of a terminal status.
 * 3. `successors` … `leased`: with :leaseOwner, the next command of each lane a command of the batch ended is
 *    leased to it at once (at most :leaseLimit, for :leaseMs), as a claim would lease it, so that dispatcher delivers
 *    it without a claim statement: its row is locked without waiting (SKIP LOCKED), then the lane confirmed by
 *    control.lane_is_free (the commands it ends counted as ended) under the lane's advisory lock. A lane not handed
 *    over is left to a claim.
 *    `woken`: the other commands of those lanes (they may have been waiting for a later time) are due now.
 * 4. `events`: the status events (CommandStatusChangedEvent, as statusChangedEvent builds them), each sent event
 *    before the ending event of the same batch.
 * 5. `counted`: the counts moved, last (they are what creations wait for), in the global lock order.
 */
export const applyCommandTransitions = sqlStatement<
  {
    uuids: string[];
    wantsSent: boolean[];
    sentAts: (string | null)[];
    endings: (string | null)[];
    results: (string | null)[];
    responses: (string | null)[];
    reporterTenantUuids: (string | null)[];
    reporterControllerUuids: (string | null)[];
    sentEventIds: string[];
    endingEventIds: string[];
    subject: string;
    /** The dispatcher the lanes' next commands are handed over to; null: none (they are left to a claim). */
    leaseOwner: string | null;
    leaseMs: number;
    leaseLimit: number;
    /** The slot the batch moves its counts in (batchCountSlot). */
    countSlot: number;
  },
  AppliedTransitionRow
>({
  name: 'commands.apply-transitions',
  prepared: true,
  parameters: [
    'uuids',
    'wantsSent',
    'sentAts',
    'endings',
    'results',
    'responses',
    'reporterTenantUuids',
    'reporterControllerUuids',
    'sentEventIds',
    'endingEventIds',
    'subject',
    'leaseOwner',
    'leaseMs',
    'leaseLimit',
    'countSlot',
  ],
  sql: `
    WITH input AS (
      SELECT * FROM unnest(:uuids::uuid[], :wantsSent::bool[], :sentAts::timestamptz[], :endings::varchar[], :results::jsonb[], :responses::jsonb[],
                           :reporterTenantUuids::uuid[], :reporterControllerUuids::uuid[], :sentEventIds::uuid[], :endingEventIds::uuid[])
             WITH ORDINALITY AS x(uuid, wants_sent, sent_at, ending, result, response, reporter_tenant_uuid,
                                  reporter_controller_uuid, sent_event_id, ending_event_id, position)
    ), locked AS (
      SELECT c.uuid, c.status FROM input i JOIN control.commands c ON c.uuid = i.uuid
       WHERE c.${OPEN_BY_UUID} AND ${REPORTED_BY_ITS_CHARGE_POINT}
       ORDER BY c.uuid FOR UPDATE OF c
    ), foreign_reports AS (
      SELECT c.uuid FROM input i JOIN control.commands c ON c.uuid = i.uuid
       WHERE i.reporter_tenant_uuid IS NOT NULL AND NOT ${REPORTED_BY_ITS_CHARGE_POINT}
    ), changed AS (
      UPDATE control.commands c
         SET status = COALESCE(i.ending, 'sent'),
             sent_at = CASE WHEN l.status = 'pending' AND i.wants_sent
                            THEN COALESCE(i.sent_at, clock_timestamp()) ELSE c.sent_at END,
             result = CASE WHEN i.ending IS NULL THEN c.result ELSE i.result END,
             response = CASE WHEN i.ending IS NULL THEN c.response ELSE i.response END,
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
    ), successors AS MATERIALIZED (
      SELECT next.uuid
        FROM (SELECT DISTINCT controller_uuid FROM changed WHERE ended AND :leaseOwner::text IS NOT NULL) AS lane
        CROSS JOIN LATERAL (
          SELECT h.uuid FROM control.commands h
           WHERE h.controller_uuid = lane.controller_uuid AND h.${OPEN} AND h.uuid NOT IN (SELECT uuid FROM input)
           ORDER BY h.created_at, h.uuid LIMIT 1) AS next
    ), successors_locked AS MATERIALIZED (
      SELECT c.uuid, c.controller_uuid FROM control.commands c
       WHERE c.uuid IN (SELECT uuid FROM successors) AND c.${OPEN_BY_UUID}
         AND (c.lease_until IS NULL OR c.lease_until < now())
       ORDER BY c.created_at
       LIMIT :leaseLimit
       FOR UPDATE SKIP LOCKED
    ), handed AS MATERIALIZED (
      SELECT uuid FROM successors_locked
       WHERE control.lane_is_free(controller_uuid, uuid, ARRAY(SELECT uuid FROM changed WHERE ended))
    ), leased AS (
      UPDATE control.commands c
         SET lease_owner = :leaseOwner, lease_until = lease.until, next_attempt_at = lease.until,
             attempts = c.attempts + 1
        FROM (SELECT clock_timestamp() + :leaseMs * interval '1 millisecond' AS until) AS lease
       WHERE c.uuid IN (SELECT uuid FROM handed)
      RETURNING c.uuid, ${claimedCommandColumns('c')}
    ), woken AS (
      ${wakeLanesSql(
        'SELECT controller_uuid FROM changed WHERE ended',
        'SELECT uuid FROM input UNION ALL SELECT uuid FROM handed',
      )}
    ), steps AS (
      SELECT c.*, 'pending' AS step_from, 'sent' AS step_to, NULL::jsonb AS step_result,
             NULL::timestamptz AS step_completed_at, c.sent_event_id AS event_id, 1 AS phase
        FROM changed c WHERE c.passed_sent
      UNION ALL
      SELECT c.*, CASE WHEN c.passed_sent THEN 'sent' ELSE c.previous END, c.status, c.result, c.completed_at,
             c.ending_event_id, 2
        FROM changed c WHERE c.ended
    ), events AS (
      ${outboxInsert(`
        SELECT s.event_id, s.tenant_uuid, :subject,
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
      ${moveCountsSql(
        `
        SELECT tenant_uuid, target_type, type, previous, uuid, -1 FROM changed
        UNION ALL
        SELECT tenant_uuid, target_type, type, status, uuid, 1 FROM changed`,
        ':countSlot::smallint',
      )}
    )
    SELECT false AS handed_over, false AS foreign_report, c.uuid, c.passed_sent, c.ended,
           c.ended AND c.controller_uuid NOT IN (SELECT controller_uuid FROM leased)
             AND EXISTS (SELECT FROM control.commands w
                          WHERE w.controller_uuid = c.controller_uuid AND w.${OPEN}
                            AND w.uuid NOT IN (SELECT uuid FROM input)) AS lane_waiting,
           ${CLAIMED_COMMAND_COLUMNS.map((column) =>
             column === 'tenant_uuid' || column === 'controller_uuid' ? `c.${column}` : `NULL AS ${column}`,
           ).join(', ')}
      FROM changed c, counted
    UNION ALL
    SELECT true, false, l.uuid, NULL, NULL, NULL, ${claimedCommandColumns('l')} FROM leased l
    UNION ALL
    SELECT false, true, f.uuid, false, false, false, ${CLAIMED_COMMAND_COLUMNS.map(() => 'NULL').join(', ')}
      FROM foreign_reports f`,
});

// ---------------------------------------------------------------------------------------------------------------
// Creation.

/** The columns of new commands, one array element per command (see newCommandColumns). */
export interface NewCommandColumns {
  uuids: string[];
  tenantUuids: string[];
  types: string[];
  targetTypes: string[];
  targetUuids: string[];
  controllerUuids: string[];
  /** JSON */
  targets: string[];
  /** JSON */
  parameters: string[];
  validForSeconds: number[];
  eventIds: string[];
  /** JSON of each first status event */
  events: string[];
  /** The status events' subject. */
  subject: string;
  /** Each command's place in the global lock order of its count key (compareCountKeys). */
  countRanks: number[];
  /** The slot the batch is counted in (batchCountSlot). */
  countSlot: number;
  /** The W3C traceparent of the request that created each command when it was traced (sampled), else null. */
  traceparents: (string | null)[];
}

const NEW_COMMAND_COLUMNS = [
  'uuids',
  'tenantUuids',
  'types',
  'targetTypes',
  'targetUuids',
  'controllerUuids',
  'targets',
  'parameters',
  'validForSeconds',
  'eventIds',
  'events',
  'subject',
  'countRanks',
  'countSlot',
  'traceparents',
] as const satisfies readonly (keyof NewCommandColumns)[];

/** Every insert into control.commands starts with it (see insertMarker). */
const COMMANDS_INSERT_MARKER = insertMarker('control.commands');

/** The visibility horizon of the command lists (see visibilityHorizonStatement). */
export const commandsVisibilityHorizon = visibilityHorizonStatement('control.commands');

/**
 * The statement storing commands from NewCommandColumns: the commands (in the given order: their created_at, hence
 * each charge point's delivery order, follows it), their first status events into the outbox and their counts
 * (count_rank orders the count rows by the global lock order); with `claim`, only if it claims the key. Without
 * `claim`, :leaseOwner may name a dispatcher (:leaseMs: its lease, :leaseLimit: at most this many): the first command
 * of each charge point in the batch, up to :leaseLimit of them, is stored already leased to it when
 * control.lane_is_free finds the charge point with no open command, so that dispatcher delivers it at once instead of
 * claiming it first.
 */
function insertCommandsSql(claim: string | undefined): string {
  const leasing =
    claim === undefined
      ? `, lane_first AS (
      SELECT DISTINCT ON (controller_uuid) uuid, controller_uuid, position
        FROM input WHERE :leaseOwner::text IS NOT NULL ORDER BY controller_uuid, position
    ), leased AS MATERIALIZED (
      SELECT uuid FROM (SELECT uuid, controller_uuid FROM lane_first ORDER BY position LIMIT :leaseLimit) candidate
       WHERE control.lane_is_free(candidate.controller_uuid, NULL)
    )`
      : '';
  const lease =
    claim === undefined
      ? `CASE WHEN x.uuid IN (SELECT uuid FROM leased)
                   THEN clock_timestamp() + :leaseMs * interval '1 millisecond' END`
      : 'NULL::timestamptz';
  const owner = claim === undefined ? ':leaseOwner' : 'NULL';
  // Marked first thing, so the lists' visibility horizon sees the creation in flight before it stamps created_at.
  return `${COMMANDS_INSERT_MARKER}
    WITH ${claim === undefined ? '' : `claimed AS (${claim}),`} input AS (
      SELECT * FROM unnest(:uuids::uuid[], :tenantUuids::uuid[], :types::varchar[], :targetTypes::varchar[], :targetUuids::uuid[], :controllerUuids::uuid[],
                           :targets::jsonb[], :parameters::jsonb[], :validForSeconds::float8[], :eventIds::uuid[], :events::jsonb[], :countRanks::int[], :traceparents::text[])
             WITH ORDINALITY AS x(uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
                                  parameters, valid_for_seconds, event_id, event, count_rank, traceparent, position)
      ${claim === undefined ? '' : 'WHERE EXISTS (SELECT FROM claimed)'}
    )${leasing}, command AS (
      INSERT INTO control.commands
             (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status,
              valid_until, created_at, next_attempt_at, lease_owner, lease_until, attempts, traceparent)
      SELECT uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, 'pending',
             clock_timestamp() + make_interval(secs => valid_for_seconds), clock_timestamp(),
             COALESCE(lease_until, clock_timestamp()), CASE WHEN lease_until IS NOT NULL THEN ${owner} END, lease_until,
             CASE WHEN lease_until IS NOT NULL THEN 1 ELSE 0 END, traceparent
        FROM (SELECT x.*, ${lease} AS lease_until FROM input x) AS x
       ORDER BY position
      RETURNING ${COMMAND_ROW_COLUMNS}, lease_owner IS NOT NULL AS leased, target, parameters, valid_until,
                target_deleted_at, traceparent
    ), event AS (
      ${outboxInsert(`
        SELECT i.event_id, c.tenant_uuid, :subject,
               jsonb_set(i.event, '{data,command,created_at}',
                         to_jsonb(${isoSecondsSql('c.created_at')})),
               clock_timestamp()
          FROM command c JOIN input i ON i.uuid = c.uuid
         ORDER BY i.position`)}
    ), counted AS (${countCreatedBatchSql('command', 'input', ':countSlot::smallint')})
    SELECT * FROM command`;
}

/** Stores a batch of commands `pending` (insertCommandsSql), some leased to :leaseOwner's dispatcher. */
export const createCommands = sqlStatement<
  NewCommandColumns & { leaseOwner: string | null; leaseMs: number; leaseLimit: number },
  StoredCommand
>({
  name: 'commands.create-batch',
  prepared: true,
  parameters: [...NEW_COMMAND_COLUMNS, 'leaseOwner', 'leaseMs', 'leaseLimit'],
  sql: insertCommandsSql(undefined),
});

/** Stores one command with the claim of its Idempotency-Key; nothing when another request holds the key. */
export const createCommandClaimingKey = sqlStatement<
  NewCommandColumns & { idempotencyKey: string; fingerprint: string },
  StoredCommand
>({
  name: 'commands.create-with-key',
  prepared: true,
  parameters: [...NEW_COMMAND_COLUMNS, 'idempotencyKey', 'fingerprint'],
  sql: insertCommandsSql(
    claimIdempotencyKeySql({
      tenantUuid: '(:tenantUuids::uuid[])[1]',
      key: ':idempotencyKey',
      fingerprint: ':fingerprint',
      commandUuid: '(:uuids::uuid[])[1]',
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// Listing.

/** The spec's date-time: UTC, seconds (truncated, as toCommandView truncates), `Z`. */
const isoSecondsColumn = (column: string) => `${isoSecondsSql(column)} AS ${column}`;

/**
 * A command's view (toCommandView's fields in its order) as the statement's row itself: PostgreSQL formats the dates,
 * where a page of 50 cost 100 Date objects parsed only to be printed again (a tenth of the service's CPU per page).
 * Statements stay unprepared: with a generic plan, type + a rare status took the type index and read every command of
 * the type (0.7 s on a million instead of 0.04 ms), so each page is planned for its values.
 */
function viewColumns(withResponse: boolean): string {
  return [
    'uuid AS command_uuid',
    'target_type',
    'target_uuid',
    'type',
    'status',
    // The answer joins the result as `response` (additive); it is kept in its own column (see the migration).
    withResponse
      ? `CASE WHEN response IS NULL THEN result ELSE result || jsonb_build_object('response', response) END AS result`
      : 'result',
    isoSecondsColumn('created_at'),
    isoSecondsColumn('completed_at'),
  ].join(', ');
}

/** A command of the tenant, as its view, with the charge point's answer. */
export const getCommandView = sqlStatement<{ tenantUuid: string; uuid: string }, CommandView>({
  name: 'commands.get-view',
  parameters: ['tenantUuid', 'uuid'],
  sql: `SELECT ${viewColumns(true)} FROM control.commands WHERE tenant_uuid = :tenantUuid AND uuid = :uuid`,
});

/** The filters a list can be narrowed by, in the order their conditions are written. */
export const COMMAND_LIST_FILTERS = ['target_type', 'target_uuid', 'type', 'status'] as const;
export type CommandListFilter = (typeof COMMAND_LIST_FILTERS)[number];

const LIST_FILTER_PARAMETERS = {
  target_type: 'targetType',
  target_uuid: 'targetUuid',
  type: 'type',
  status: 'status',
} as const satisfies Record<CommandListFilter, string>;

/** The parameters of listCommandViews and countCommandsOfTarget. */
export type CommandListParameters = { tenantUuid: string } & Partial<
  Record<(typeof LIST_FILTER_PARAMETERS)[CommandListFilter], string>
> & { cursorAt?: string; cursorUuid?: string; horizon?: string };

/** The sort key of a command list, as keyset pagination compares it (cursorAt, cursorUuid). */
export const COMMAND_LIST_KEY: readonly KeysetColumn[] = [
  { column: 'command.created_at', parameter: 'cursorAt', type: 'timestamptz' },
  { column: 'command.uuid', parameter: 'cursorUuid', type: 'uuid' },
];

/** The rows before the horizon (a page's), or those from it on (held back). */
type HorizonSide = 'before' | 'from';

function listWhere(filters: readonly CommandListFilter[], keyset?: '<' | '>', horizon?: HorizonSide) {
  return {
    parameters: [
      'tenantUuid',
      ...filters.map((filter) => LIST_FILTER_PARAMETERS[filter]),
      ...(keyset ? COMMAND_LIST_KEY.map((key) => key.parameter) : []),
      ...(horizon ? ['horizon'] : []),
    ] as (keyof CommandListParameters)[],
    where: [
      'tenant_uuid = :tenantUuid',
      ...filters.map((f) => `${f} = :${LIST_FILTER_PARAMETERS[f]}`),
      ...(keyset ? [keysetPredicate(COMMAND_LIST_KEY, keyset)] : []),
      ...(horizon ? [`command.created_at ${horizon === 'before' ? '<' : '>='} :horizon::timestamptz`] : []),
    ].join(' AND '),
  };
}

/** A listed command with its exact sort time (`cursor_at`, for the page's cursors; not part of the view). */
export type ListedCommandRow = CommandView & { cursor_at: string };

/**
 * A page of the tenant's commands matching `filters` (in COMMAND_LIST_FILTERS' order), by created_at and then uuid in
 * one direction, which is exactly the tail of every list index, so pages never overlap. A numbered page skips
 * `offset` rows; a page read by cursor (`keyset`) starts after the key (cursorAt, cursorUuid) in the index instead,
 * which costs the same on any page. Page size and offset are written into the text (each page is planned for its
 * values anyway).
 */
export function listCommandViews(page: {
  filters: readonly CommandListFilter[];
  direction: 'ASC' | 'DESC';
  limit: number;
  offset?: number;
  /** Rows after the cursor's key in this comparison (a page read by cursor). */
  keyset?: '<' | '>';
  /** With the charge point's answers (`include=response`). */
  withResponse?: boolean;
  /** Only rows stamped before :horizon (a numbered page newest first; see CommandReader). */
  beforeHorizon?: boolean;
}) {
  const { parameters, where } = listWhere(
    page.filters,
    page.keyset,
    page.beforeHorizon ? 'before' : undefined,
  );
  const { direction } = page;
  const kind = page.keyset === undefined ? '' : `:after${page.keyset === '<' ? '-lower' : '-higher'}`;
  return sqlStatement<CommandListParameters, ListedCommandRow>({
    name: `commands.list${page.filters.map((filter) => `:${filter}`).join('')}:${direction.toLowerCase()}${kind}${page.beforeHorizon ? ':before-horizon' : ''}${page.withResponse ? ':with-response' : ''}`,
    parameters,
    // Qualified: the bare name would sort by the formatted date, whose ties within a second fall to the uuid.
    sql: `SELECT ${viewColumns(page.withResponse === true)}, ${cursorTimeSql('command.created_at')} AS cursor_at
          FROM control.commands command WHERE ${where}
          ORDER BY command.created_at ${direction}, command.uuid ${direction}
          LIMIT ${Math.trunc(page.limit)}${page.offset ? ` OFFSET ${Math.trunc(page.offset)}` : ''}`,
  });
}

/** Whether a command matching `filters` is stamped at or after :horizon (held back above a newest-first page). */
export function commandsHeldBack(filters: readonly CommandListFilter[]) {
  const { parameters, where } = listWhere(filters, undefined, 'from');
  return sqlStatement<CommandListParameters, { held_back: boolean }>({
    name: `commands.held-back${filters.map((filter) => `:${filter}`).join('')}`,
    parameters,
    sql: `SELECT EXISTS (SELECT FROM control.commands command WHERE ${where}) AS held_back`,
  });
}

/** How many commands of a target match (counted in the target's index range). */
export function countCommandsOfTarget(filters: readonly CommandListFilter[]) {
  const { parameters, where } = listWhere(filters);
  return sqlStatement<CommandListParameters, { total: string }>({
    name: `commands.count${filters.map((filter) => `:${filter}`).join('')}`,
    parameters,
    sql: `SELECT count(*) AS total FROM control.commands WHERE ${where}`,
  });
}

/** The number of commands in each status (the metrics), across tenants. */
export const countCommandsByStatus = sqlStatement<Record<never, never>, { status: string; count: number }>({
  name: 'commands.count-by-status',
  parameters: [],
  sql: 'SELECT status, count(*)::int AS count FROM control.commands GROUP BY status',
});

/** For the SQL snapshots: the fixed statements and one of each kind built per request. */
export const COMMANDS_STATEMENTS = [
  createCommands,
  createCommandClaimingKey,
  claimDueCommands,
  renewCommandLeases,
  releaseCommandClaim,
  releaseCommandClaims,
  releaseHostCommandClaims,
  lockEndingOfflineCommands,
  deferOfflineLane,
  wakeConnectedLanes,
  lockIdleCommandsOfController,
  markCommandTargetDeleted,
  wakeCommandLanes,
  failPendingCommands,
  applyCommandTransitions,
  getCommandView,
  listCommandViews({ filters: [], direction: 'DESC', limit: 50, offset: 0, beforeHorizon: true }),
  listCommandViews({ filters: [], direction: 'ASC', limit: 51, offset: 0 }),
  listCommandViews({ filters: COMMAND_LIST_FILTERS, direction: 'ASC', limit: 50, offset: 100 }),
  listCommandViews({
    filters: [],
    direction: 'DESC',
    limit: 20,
    offset: 0,
    withResponse: true,
    beforeHorizon: true,
  }),
  listCommandViews({ filters: [], direction: 'DESC', limit: 51, keyset: '<' }),
  listCommandViews({ filters: COMMAND_LIST_FILTERS, direction: 'DESC', limit: 51, keyset: '>' }),
  commandsHeldBack([]),
  commandsHeldBack(COMMAND_LIST_FILTERS),
  countCommandsOfTarget(['target_uuid']),
  countCommandsOfTarget(COMMAND_LIST_FILTERS),
  countCommandsByStatus,
  commandsVisibilityHorizon,
];
