import { Injectable } from '@nestjs/common';
import { CommandResultError } from '@cpc/ocpp-commands';
import { runStatement } from '@cpc/database';
import type { DataSource } from 'typeorm';
import {
  claimDueCommands,
  deferOfflineLane,
  lockEndingOfflineCommands,
  lockIdleCommandsOfController,
  markCommandTargetDeleted,
  releaseCommandClaim,
  releaseCommandClaims,
  releaseHostCommandClaims,
  renewCommandLeases,
  wakeConnectedLanes,
} from '../../repositories/commands.repository.js';
import type { ClaimedCommand } from '../command-row.js';
import { InjectDeliveryDataSource } from '../delivery-connection.js';
import { CommandTransitions } from '../outcomes/command-transitions.js';

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

  /** Claims up to `limit` lane heads (claimDueCommands). */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedCommand[]> {
    return runStatement(this.dataSource, claimDueCommands, { owner, leaseMs, limit });
  }

  /**
   * Keeps this instance's claims alive while their calls run, and not due before they end (as a claim leaves them).
   * Rows are locked in uuid order, as the transitions' batches lock them, so the two never wait for each other in a
   * circle.
   */
  async renew(owner: string, commandUuids: string[], leaseMs: number): Promise<void> {
    if (commandUuids.length === 0) return;
    await runStatement(this.dataSource, renewCommandLeases, { owner, commandUuids, leaseMs });
  }

  /**
   * Gives a claim back, to be tried again after `delayMs`. `unconfirmed`: the request went unanswered, so the call
   * may have gone out (see awaitConnection).
   */
  async release(owner: string, commandUuid: string, delayMs: number, unconfirmed = false): Promise<void> {
    await runStatement(this.dataSource, releaseCommandClaim, { owner, commandUuid, delayMs, unconfirmed });
  }

  /** Gives back every claim of this instance at once (shutdown), due again now for whoever takes them. */
  async releaseAll(owner: string, commandUuids: string[]): Promise<void> {
    if (commandUuids.length === 0) return;
    await runStatement(this.dataSource, releaseCommandClaims, { owner, commandUuids });
  }

  /** Gives back the claims of every other owner whose name starts with `prefix` (earlier processes on this host). */
  async releaseHost(prefix: string, owner: string): Promise<void> {
    await runStatement(this.dataSource, releaseHostCommandClaims, { prefix, owner });
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
      const ending = await runStatement(manager, lockEndingOfflineCommands, {
        controllerUuid: head.controller_uuid,
        headUuid: head.uuid,
        owner,
      });
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
      await runStatement(manager, deferOfflineLane, {
        controllerUuid: head.controller_uuid,
        recheckMs,
        owner,
      });
    });
  }

  /**
   * These charge points connected (wakeConnectedLanes): their waiting commands are due now, except one being
   * delivered. Answers whether it made any command due.
   */
  async wakeLanes(controllerUuids: readonly string[]): Promise<boolean> {
    if (controllerUuids.length === 0) return false;
    const woken = await runStatement(this.dataSource, wakeConnectedLanes, {
      controllerUuids: [...controllerUuids],
    });
    return woken.length > 0;
  }

  /**
   * The controller was deleted: its open commands are marked, the pending ones nobody is delivering fail at once
   * (`target_deleted`); one being delivered right now ends by its call, or fails when it finds the mark.
   */
  async controllerDeleted(tenantUuid: string, controllerUuid: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const idle = await runStatement(manager, lockIdleCommandsOfController, { tenantUuid, controllerUuid });
      await runStatement(manager, markCommandTargetDeleted, { tenantUuid, controllerUuid });
      await this.transitions.failPending(
        idle.map((row) => row.uuid),
        CommandResultError.TargetDeleted,
        manager,
      );
    });
  }
}
