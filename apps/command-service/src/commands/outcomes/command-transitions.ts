import { Injectable, Logger } from '@nestjs/common';
import type { CommandResult } from '@cpc/contracts';
import { namedQuery, TransactionalOutbox } from '@cpc/database';
import type { TerminalCommandStatus } from '@cpc/ocpp-commands';
import type { DataSource, EntityManager } from 'typeorm';
import {
  COMMAND_ROW_COLUMNS,
  type CommandRow,
  commandRowColumns,
  recordStatusChanges,
  updatedRows,
} from '../command-record.js';
import { InjectDeliveryDataSource } from '../delivery-connection.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';
import { RecentlyEndedCommands } from './recently-ended-commands.js';

const OPEN = `status IN ('pending', 'sent')`;
/** Enough for the endings and late events of several seconds at full load. */
const RECENTLY_ENDED_CAPACITY = 50_000;

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

/** A markSent (no ending) or finish waiting for the next batch; `resolve` says whether it changed the command. */
interface QueuedTransition {
  commandUuid: string;
  sentAt: string | null;
  ending?: CommandEnding;
  resolve: (changed: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Every status change of a command, each one a guarded UPDATE (`sent` only from `pending`, a terminal status only
 * from `pending` or `sent`), so concurrent writers (the dispatcher, the gateway's events, a second instance, a
 * redelivered event) can never move a command backwards or out of a terminal state: whoever comes second changes
 * nothing. Each change writes its status event in the same transaction.
 *
 * markSent and finish are group-committed: those that arrive while a batch is being written go together into the
 * next one (one transaction, one statement per step, the counts moved once per batch), so the cost per command falls
 * as the load grows instead of every command waiting its turn for the count rows and a commit of its own.
 */
@Injectable()
export class CommandTransitions {
  private readonly logger = new Logger(CommandTransitions.name);
  private queued: QueuedTransition[] = [];
  /**
   * One batch is written at a time: a batch holds the count rows it moves (a slot of each status per command) until
   * it commits, and creations wait for those rows; a second batch in parallel made them wait longer (measured:
   * creations at 1,000/s offered fell from 363/s to 141–242/s) without ending more commands.
   */
  private writing = false;
  private readonly recentlyEnded = new RecentlyEndedCommands(RECENTLY_ENDED_CAPACITY);

  constructor(
    @InjectDeliveryDataSource() private readonly dataSource: DataSource,
    private readonly outbox: TransactionalOutbox,
    private readonly dispatch: DispatchSignal,
  ) {}

  /** pending → sent; false when the command was no longer pending. */
  markSent(commandUuid: string, sentAt: string | null): Promise<boolean> {
    return this.enqueue(commandUuid, sentAt, undefined);
  }

  /** pending/sent → terminal; false when it had ended already. The charge point's next command becomes due. */
  finish(commandUuid: string, ending: CommandEnding): Promise<boolean> {
    return this.enqueue(commandUuid, ending.sentAt ?? null, ending);
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

  private enqueue(commandUuid: string, sentAt: string | null, ending?: CommandEnding): Promise<boolean> {
    if (this.recentlyEnded.has(commandUuid)) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      this.queued.push({ commandUuid, sentAt, ending, resolve, reject });
      void this.writeQueued();
    });
  }

  /** Writes what is queued, a batch at a time, until nothing is left. */
  private async writeQueued(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queued.length > 0) {
        const batch = this.queued;
        this.queued = [];
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: QueuedTransition[]): Promise<void> {
    let changed: Set<QueuedTransition>;
    try {
      changed = await this.dataSource.transaction((manager) => this.apply(manager, batch));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      // One command must not hold up the others (were anything wrong with one of them): each alone.
      this.logger.warn(`a batch of ${batch.length} transitions failed, writing them one by one`);
      for (const transition of batch) await this.writeBatch([transition]);
      return;
    }
    // Committed: every command this batch had an ending for is terminal now, whether this batch ended it or not.
    for (const transition of batch) if (transition.ending) this.recentlyEnded.add(transition.commandUuid);
    if (batch.some((transition) => transition.ending && changed.has(transition))) {
      // Their charge points' next commands may be claimed now.
      this.dispatch.notify();
    }
    if (changed.size > 0) void this.outbox.flush();
    for (const transition of batch) transition.resolve(changed.has(transition));
  }

  /**
   * One batch in one transaction: the open rows locked in uuid order (so concurrent batches cannot wait for each
   * other in a circle), pending → sent where the call went out, then the endings; the first ending queued for a
   * command wins, later ones change nothing. Returns the transitions that changed their command.
   */
  private async apply(manager: EntityManager, batch: QueuedTransition[]): Promise<Set<QueuedTransition>> {
    const uuids = [...new Set(batch.map((transition) => transition.commandUuid))];
    const locked = await namedQuery<{ uuid: string; status: string }>(manager, {
      name: 'commands.lock-open',
      text: `SELECT uuid, status FROM control.commands WHERE uuid = ANY($1) AND ${OPEN} ORDER BY uuid FOR UPDATE`,
      values: [uuids],
    });
    const statusOf = new Map(locked.map((row) => [row.uuid, row.status]));
    const changed = new Set<QueuedTransition>();

    const sent = await this.sendPending(manager, batch, statusOf);
    const sentNow = new Set(sent.map((row) => row.uuid));
    for (const transition of batch) {
      if (!transition.ending && sentNow.has(transition.commandUuid)) changed.add(transition);
    }
    for (const row of sent) statusOf.set(row.uuid, 'sent');

    const endings = new Map<string, QueuedTransition>();
    for (const transition of batch) {
      if (!transition.ending || !statusOf.has(transition.commandUuid)) continue;
      if (!endings.has(transition.commandUuid)) endings.set(transition.commandUuid, transition);
    }
    const ended = await this.end(manager, [...endings.values()]);
    for (const row of ended) changed.add(endings.get(row.uuid)!);
    await this.recordEnded(
      manager,
      ended.map((row) => ({ ...row, previous: statusOf.get(row.uuid)! })),
      sent.map((row) => ({ row, previousStatus: 'pending' })),
    );
    return changed;
  }

  /** pending → sent for the batch's commands whose call went out (the first known time of sending kept). */
  private async sendPending(
    manager: EntityManager,
    batch: QueuedTransition[],
    statusOf: Map<string, string>,
  ): Promise<CommandRow[]> {
    const toSend = new Map<string, string | null>();
    for (const transition of batch) {
      if (transition.ending && !transition.ending.wasSent) continue;
      if (statusOf.get(transition.commandUuid) !== 'pending') continue;
      toSend.set(transition.commandUuid, toSend.get(transition.commandUuid) ?? transition.sentAt);
    }
    if (toSend.size === 0) return [];
    return namedQuery<CommandRow>(manager, {
      name: 'commands.mark-sent',
      text: `UPDATE control.commands c
          SET status = 'sent', sent_at = COALESCE(x.sent_at, clock_timestamp())
         FROM unnest($1::uuid[], $2::timestamptz[]) AS x(uuid, sent_at)
        WHERE c.uuid = x.uuid AND c.status = 'pending'
        RETURNING ${commandRowColumns('c')}`,
      values: [[...toSend.keys()], [...toSend.values()]],
    });
  }

  /** Open → terminal, one ending per command. */
  private async end(manager: EntityManager, endings: QueuedTransition[]): Promise<CommandRow[]> {
    if (endings.length === 0) return [];
    return namedQuery<CommandRow>(manager, {
      name: 'commands.end',
      text: `UPDATE control.commands c
          SET status = x.status, result = x.result, completed_at = clock_timestamp(),
              next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
         FROM unnest($1::uuid[], $2::varchar[], $3::jsonb[]) AS x(uuid, status, result)
        WHERE c.uuid = x.uuid AND c.${OPEN}
        RETURNING ${commandRowColumns('c')}`,
      values: [
        endings.map((transition) => transition.commandUuid),
        endings.map((transition) => transition.ending!.status),
        endings.map((transition) => JSON.stringify(transition.ending!.result)),
      ],
    });
  }

  /**
   * Status events of commands that were sent and then of those that just ended, then the ended commands' charge
   * points' next commands made due at once (they may have been waiting behind these, scheduled for later). Returns
   * how many ended.
   */
  private async recordEnded(
    manager: EntityManager,
    rows: EndedRow[],
    earlier: { row: CommandRow; previousStatus: string }[] = [],
  ): Promise<number> {
    if (rows.length > 0) {
      // Command rows first (the lane's next commands), counts last: see countStatusChanges. Rows another
      // transaction holds are skipped rather than waited for: they become due at their time anyway.
      await namedQuery(manager, {
        name: 'commands.wake-lanes',
        text: `UPDATE control.commands SET next_attempt_at = clock_timestamp()
          WHERE uuid IN (SELECT uuid FROM control.commands
                          WHERE controller_uuid = ANY($1) AND ${OPEN} AND next_attempt_at > clock_timestamp()
                          FOR UPDATE SKIP LOCKED)`,
        values: [[...new Set(rows.map((row) => row.controller_uuid))]],
      });
    }
    if (rows.length + earlier.length === 0) return 0;
    await recordStatusChanges(this.outbox, manager, [
      ...earlier,
      ...rows.map((row) => ({ row, previousStatus: row.previous })),
    ]);
    return rows.length;
  }
}
