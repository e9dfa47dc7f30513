import { Injectable } from '@nestjs/common';
import type { CommandResult } from '@cpc/contracts';
import { TransactionalOutbox } from '@cpc/database';
import type { TerminalCommandStatus } from '@cpc/ocpp-commands';
import { DataSource, type EntityManager } from 'typeorm';
import {
  COMMAND_ROW_COLUMNS,
  type CommandRow,
  commandRowColumns,
  recordStatusChanges,
  updatedRows,
} from '../command-record.js';

const OPEN = `status IN ('pending', 'sent')`;

type EndedRow = CommandRow & { previous: string };

/** How a command ends. */
export interface CommandEnding {
  status: TerminalCommandStatus;
  result: CommandResult;
  /** The call went (or may have gone) out, so the command passes through `sent` first when it was still pending. */
  wasSent: boolean;
  /** When the call went out, if known. */
  sentAt?: string | null;
}

/**
 * Every status change of a command, each one a single guarded UPDATE (`sent` only from `pending`, a terminal status
 * only from `pending` or `sent`), so concurrent writers (the dispatcher, the gateway's events, a second instance,
 * a redelivered event) can never move a command backwards or out of a terminal state: whoever comes second changes
 * nothing. Each change writes its status event in the same transaction.
 */
@Injectable()
export class CommandTransitions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: TransactionalOutbox,
  ) {}

  /** pending → sent; false when the command was no longer pending. */
  async markSent(commandUuid: string, sentAt: string | null): Promise<boolean> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const row = await this.sent(manager, commandUuid, sentAt);
      if (row) await recordStatusChanges(this.outbox, manager, [{ row, previousStatus: 'pending' }]);
      return row !== undefined;
    });
    if (changed) void this.outbox.flush();
    return changed;
  }

  /** pending/sent → terminal; false when it had ended already. The charge point's next command becomes due. */
  async finish(commandUuid: string, ending: CommandEnding): Promise<boolean> {
    const finished = await this.dataSource.transaction(async (manager) => {
      const sent = ending.wasSent ? await this.sent(manager, commandUuid, ending.sentAt ?? null) : undefined;
      const rows = await updatedRows<EndedRow>(
        manager,
        `WITH old AS (SELECT uuid, status FROM control.commands WHERE uuid = $1 FOR UPDATE)
         UPDATE control.commands c
            SET status = $2, result = $3, completed_at = clock_timestamp(),
                next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
           FROM old
          WHERE c.uuid = old.uuid AND old.${OPEN}
          RETURNING old.status AS previous, ${commandRowColumns('c')}`,
        [commandUuid, ending.status, JSON.stringify(ending.result)],
      );
      return this.recordEnded(manager, rows, sent ? [{ row: sent, previousStatus: 'pending' }] : []);
    });
    if (finished > 0) void this.outbox.flush();
    return finished > 0;
  }

  /**
   * Ends the still-pending commands among `commandUuids` as failed with `error` (validity over while offline, target
   * deleted); commands sent meanwhile are left to their call's outcome. Returns how many ended.
   */
  async failPending(commandUuids: string[], error: string, manager?: EntityManager): Promise<number> {
    if (commandUuids.length === 0) return 0;
    const run = async (transaction: EntityManager) => {
      const rows = await updatedRows<EndedRow>(
        transaction,
        `UPDATE control.commands
            SET status = 'failed', result = $2, completed_at = clock_timestamp(),
                next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
          WHERE uuid = ANY($1) AND status = 'pending'
          RETURNING 'pending' AS previous, ${COMMAND_ROW_COLUMNS}`,
        [commandUuids, JSON.stringify({ error })],
      );
      return this.recordEnded(transaction, rows);
    };
    const ended = manager ? await run(manager) : await this.dataSource.transaction(run);
    if (ended > 0) void this.outbox.flush();
    return ended;
  }

  /** pending → sent without recording it (the caller records it with whatever else its transaction changes). */
  private async sent(
    manager: EntityManager,
    commandUuid: string,
    sentAt: string | null,
  ): Promise<CommandRow | undefined> {
    const rows = await updatedRows<CommandRow>(
      manager,
      `UPDATE control.commands SET status = 'sent', sent_at = COALESCE($2::timestamptz, clock_timestamp())
        WHERE uuid = $1 AND status = 'pending'
        RETURNING ${COMMAND_ROW_COLUMNS}`,
      [commandUuid, sentAt],
    );
    return rows[0];
  }

  /**
   * Status events of commands that just ended, then their charge points' next commands made due at once (they may
   * have been waiting behind these, scheduled for later). Returns how many ended.
   */
  private async recordEnded(
    manager: EntityManager,
    rows: EndedRow[],
    earlier: { row: CommandRow; previousStatus: string }[] = [],
  ): Promise<number> {
    if (rows.length === 0) return 0;
    // Command rows first (the lane's next commands), counts last: see countStatusChanges.
    await manager.query(
      `UPDATE control.commands SET next_attempt_at = clock_timestamp()
        WHERE controller_uuid = ANY($1) AND ${OPEN} AND next_attempt_at > clock_timestamp()`,
      [[...new Set(rows.map((row) => row.controller_uuid))]],
    );
    await recordStatusChanges(this.outbox, manager, [
      ...earlier,
      ...rows.map((row) => ({ row, previousStatus: row.previous })),
    ]);
    return rows.length;
  }
}
