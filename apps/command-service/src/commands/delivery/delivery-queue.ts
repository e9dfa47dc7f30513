import { Injectable } from '@nestjs/common';
import type { OcppCallTarget } from '@cpc/contracts';
import { CommandResultError } from '@cpc/ocpp-commands';
import { namedQuery } from '@cpc/database';
import type { DataSource } from 'typeorm';
import type { CommandRow } from '../command-record.js';
import { InjectDeliveryDataSource } from '../delivery-connection.js';
import { OPEN, OPEN_BY_UUID } from '../open-commands.js';
import { CommandTransitions } from '../outcomes/command-transitions.js';

/** A command this instance claimed for one delivery attempt. */
export type ClaimedCommand = Pick<
  CommandRow,
  'uuid' | 'tenant_uuid' | 'controller_uuid' | 'type' | 'target_type' | 'target_uuid' | 'created_at'
> & {
  target: OcppCallTarget;
  parameters: unknown;
  status: 'pending' | 'sent';
  valid_until: Date;
  target_deleted_at: Date | null;
};

/**
 * Claims up to $3 lane heads for owner $1, for $2 ms, of lanes that have a due command and no claimed one; SKIP
 * LOCKED keeps instances apart. The lanes are found by skipping from one charge point to the next in
 * commands_open_lane_due_idx (a probe per lane, not a read of every due command); each lane's head and whether the
 * lane is busy are probes of that lane alone (subqueries run per lane, which the planner cannot turn into scans of
 * every open command), and the heads are then locked through the primary key (OPEN_BY_UUID). Times are `now()` (the
 * statement's start), not clock_timestamp(), so the index can be searched by time. A claimed command is due again only
 * when its lease ends (a lapsed claim is taken up then), so the walk passes over lanes whose only open command is
 * being delivered (at 500/s, index scans of control.commands fell from 63,000 to 17,000 in 10 s). The $3 oldest
 * heads this statement could lock are then confirmed by control.lane_is_free, as a creation leasing its command
 * confirms its lane: a lane that a creation is leasing right now is passed over (its new command may be invisible to
 * this statement's snapshot).
 */
export const CLAIM_DUE_SQL = `WITH RECURSIVE due_lanes AS (
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
        LIMIT $3
        FOR UPDATE SKIP LOCKED
     ), claimable AS MATERIALIZED (
       SELECT uuid FROM candidates WHERE control.lane_is_free(controller_uuid, uuid)
     ), lease AS (
       SELECT clock_timestamp() + $2 * interval '1 millisecond' AS until
     )
     UPDATE control.commands c
        SET lease_owner = $1, lease_until = lease.until, next_attempt_at = lease.until, attempts = c.attempts + 1
       FROM claimable, lease
      WHERE c.uuid = claimable.uuid
     RETURNING c.uuid, c.tenant_uuid, c.controller_uuid, c.type, c.target_type, c.target_uuid, c.target,
               c.parameters, c.status, c.valid_until, c.created_at, c.target_deleted_at`;

/**
 * The delivery queue is the commands table itself: the database is the only truth, so a killed instance loses
 * nothing. Each charge point's open commands form a lane, delivered strictly in creation order: only a lane's oldest
 * open command (its head) is ever claimed, and only while no command of the lane is claimed, so at most one call per
 * charge point is on its way. A claim is a lease (owner + expiry) that its instance renews while the call runs; a
 * dead instance's leases lapse and another instance (or its restart) takes the command up again. Taking it up again
 * is safe: the gateway delivers each command uuid at most once and answers repeats with the first outcome.
 */
@Injectable()
export class DeliveryQueue {
  constructor(
    @InjectDeliveryDataSource() private readonly dataSource: DataSource,
    private readonly transitions: CommandTransitions,
  ) {}

  /** Claims up to `limit` lane heads (CLAIM_DUE_SQL). */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedCommand[]> {
    return namedQuery<ClaimedCommand>(this.dataSource, {
      name: 'commands.claim-due',
      text: CLAIM_DUE_SQL,
      values: [owner, leaseMs, limit],
    });
  }

  /**
   * Keeps this instance's claims alive while their calls run, and not due before they end (as a claim leaves them).
   * Rows are locked in uuid order, as the transitions' batches lock them, so the two never wait for each other in a
   * circle.
   */
  async renew(owner: string, commandUuids: string[], leaseMs: number): Promise<void> {
    if (commandUuids.length === 0) return;
    await this.dataSource.query(
      `UPDATE control.commands c SET lease_until = lease.until, next_attempt_at = lease.until
         FROM (SELECT clock_timestamp() + $3 * interval '1 millisecond' AS until) AS lease
        WHERE c.uuid IN (SELECT uuid FROM control.commands
                          WHERE uuid = ANY($2) AND lease_owner = $1 AND ${OPEN_BY_UUID} ORDER BY uuid FOR UPDATE)`,
      [owner, commandUuids, leaseMs],
    );
  }

  /**
   * Gives a claim back, to be tried again after `delayMs`. `unconfirmed`: the request went unanswered, so the call
   * may have gone out (see awaitConnection).
   */
  async release(owner: string, commandUuid: string, delayMs: number, unconfirmed = false): Promise<void> {
    await namedQuery(this.dataSource, {
      name: 'commands.release',
      text: `UPDATE control.commands
          SET lease_owner = NULL, lease_until = NULL,
              next_attempt_at = clock_timestamp() + $3 * interval '1 millisecond',
              delivery_unconfirmed_at = CASE WHEN $4 THEN COALESCE(delivery_unconfirmed_at, clock_timestamp())
                                             ELSE delivery_unconfirmed_at END
        WHERE uuid = $2 AND lease_owner = $1 AND ${OPEN_BY_UUID}`,
      values: [owner, commandUuid, delayMs, unconfirmed],
    });
  }

  /** Gives back every claim of this instance at once (shutdown), due again now for whoever takes them. */
  async releaseAll(owner: string, commandUuids: string[]): Promise<void> {
    if (commandUuids.length === 0) return;
    await this.dataSource.query(
      `UPDATE control.commands SET lease_owner = NULL, lease_until = NULL, next_attempt_at = clock_timestamp()
        WHERE uuid IN (SELECT uuid FROM control.commands
                        WHERE uuid = ANY($2) AND lease_owner = $1 AND ${OPEN_BY_UUID} ORDER BY uuid FOR UPDATE)`,
      [owner, commandUuids],
    );
  }

  /** Gives back the claims of every other owner whose name starts with `prefix` (earlier processes on this host). */
  async releaseHost(prefix: string, owner: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE control.commands SET lease_owner = NULL, lease_until = NULL, next_attempt_at = clock_timestamp()
        WHERE ${OPEN} AND lease_until IS NOT NULL AND starts_with(lease_owner, $1) AND lease_owner <> $2`,
      [prefix, owner],
    );
  }

  /**
   * The lane's charge point is not connected: its pending commands whose validity is over fail
   * (`charge_point_offline`, or `connection_lost` when an unanswered request may have delivered it), and so do those
   * whose target was deleted meanwhile (`target_deleted`: the deletion found them being delivered); the others wait
   * for the connected event, looked at again after `recheckMs` at the latest and when the first validity ends. The
   * head's claim is given back.
   */
  async awaitConnection(owner: string, head: ClaimedCommand, recheckMs: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const ending = await manager.query<{ uuid: string; unconfirmed: boolean; deleted: boolean }[]>(
        `SELECT uuid, delivery_unconfirmed_at IS NOT NULL AS unconfirmed, target_deleted_at IS NOT NULL AS deleted
           FROM control.commands
          WHERE controller_uuid = $1 AND status = 'pending'
            AND (valid_until <= clock_timestamp() OR target_deleted_at IS NOT NULL)
            AND (lease_until IS NULL OR lease_until < clock_timestamp() OR (uuid = $2 AND lease_owner = $3))
          FOR UPDATE`,
        [head.controller_uuid, head.uuid, owner],
      );
      await this.transitions.failPending(
        ending.filter((row) => row.deleted).map((row) => row.uuid),
        CommandResultError.TargetDeleted,
        manager,
      );
      // A call that may have gone out before the charge point went away is not "offline": its connection was lost.
      for (const [unconfirmed, error] of [
        [false, CommandResultError.ChargePointOffline],
        [true, CommandResultError.ConnectionLost],
      ] as const) {
        await this.transitions.failPending(
          ending.filter((row) => !row.deleted && row.unconfirmed === unconfirmed).map((row) => row.uuid),
          error,
          manager,
        );
      }
      await manager.query(
        `UPDATE control.commands
            SET next_attempt_at = LEAST(valid_until, clock_timestamp() + $2 * interval '1 millisecond'),
                lease_owner = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_owner END,
                lease_until = CASE WHEN lease_owner = $3 THEN NULL ELSE lease_until END
          WHERE controller_uuid = $1 AND ${OPEN}`,
        [head.controller_uuid, recheckMs, owner],
      );
    });
  }

  /**
   * The charge point connected (or its lane moved on): every open command of it is due now, except one being
   * delivered, which stays due at its lease's end (as claims leave it).
   */
  async wakeLane(controllerUuid: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE control.commands SET next_attempt_at = clock_timestamp()
        WHERE controller_uuid = $1 AND ${OPEN} AND next_attempt_at > clock_timestamp()
          AND (lease_until IS NULL OR lease_until < clock_timestamp())`,
      [controllerUuid],
    );
  }

  /**
   * The controller was deleted: its open commands are marked, the pending ones nobody is delivering fail at once
   * (`target_deleted`); one being delivered right now ends by its call, or fails when it finds the mark.
   */
  async controllerDeleted(tenantUuid: string, controllerUuid: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const idle = await manager.query<{ uuid: string }[]>(
        `SELECT uuid FROM control.commands
          WHERE tenant_uuid = $1 AND controller_uuid = $2 AND status = 'pending'
            AND (lease_until IS NULL OR lease_until < clock_timestamp())
          FOR UPDATE`,
        [tenantUuid, controllerUuid],
      );
      await manager.query(
        `UPDATE control.commands SET target_deleted_at = COALESCE(target_deleted_at, clock_timestamp())
          WHERE tenant_uuid = $1 AND controller_uuid = $2 AND ${OPEN}`,
        [tenantUuid, controllerUuid],
      );
      await this.transitions.failPending(
        idle.map((row) => row.uuid),
        CommandResultError.TargetDeleted,
        manager,
      );
    });
  }
}
