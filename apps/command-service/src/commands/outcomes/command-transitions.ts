import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type CommandResult, CommandSubjects } from '@cpc/contracts';
import { runStatement, TransactionalOutbox } from '@cpc/database';
import type { TerminalCommandStatus } from '@cpc/ocpp-commands';
import type { DataSource, EntityManager } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import {
  applyCommandTransitions,
  failPendingCommands,
  wakeCommandLanes,
} from '../../repositories/commands.repository.js';
import { batchCountSlot } from '../command-counts.js';
import { recordStatusChanges } from '../command-record.js';
import type { ClaimedCommand, CommandRow } from '../command-row.js';
import { InjectDeliveryDataSource } from '../delivery-connection.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';
import { RecentlyEndedCommands } from './recently-ended-commands.js';

type EndedRow = CommandRow & { previous: string };

/** How a command ends. */
export interface CommandEnding {
  status: TerminalCommandStatus;
  result: CommandResult;
  /** The charge point's answer as received (kept as `result.response`); absent when it did not answer. */
  response?: unknown;
  /** The call went (or may have gone) out, so the command passes through `sent` first when it was still pending. */
  wasSent: boolean;
  /** When the call went out, if known. */
  sentAt?: string | null;
}

/**
 * An ending's result and answer as JSON for the database. An answer larger than `maxResponseBytes` is not kept; the
 * result says how large it was instead (`response_omitted_bytes`).
 */
export function storedEnding(
  ending: CommandEnding | undefined,
  maxResponseBytes: number,
): { result: string; response: string | null } | undefined {
  if (!ending) return undefined;
  const response = ending.response === undefined ? null : JSON.stringify(ending.response);
  const bytes = response === null ? 0 : Buffer.byteLength(response);
  if (bytes <= maxResponseBytes) return { result: JSON.stringify(ending.result), response };
  return { result: JSON.stringify({ ...ending.result, response_omitted_bytes: bytes }), response: null };
}

/** A markSent (no ending) or finish waiting for the next batch; `resolve` says whether it changed the command. */
interface QueuedTransition {
  commandUuid: string;
  sentAt: string | null;
  ending?: CommandEnding;
  resolve: (changed: boolean) => void;
  reject: (error: unknown) => void;
}

/** What a batch does to one command: all its transitions in the batch merged. */
interface BatchedCommand {
  /** A transition says its call went out: pending → sent. */
  wantsSent: boolean;
  /** The first known time of sending. */
  sentAt: string | null;
  /** The first ending queued for it. */
  ending: CommandEnding | undefined;
}

/**
 * Every status change of a command, each one a guarded UPDATE (`sent` only from `pending`, a terminal status only
 * from `pending` or `sent`), so concurrent writers (the dispatcher, the gateway's events, a second instance, a
 * redelivered event) can never move a command backwards or out of a terminal state: whoever comes second changes
 * nothing. Each change writes its status event in the same transaction.
 *
 * markSent and finish are group-committed: those that arrive while a batch is being written go together into the
 * next one (one statement: one round trip and one commit, the counts moved once per batch), so the cost per command
 * falls as the load grows instead of every command waiting its turn for the count rows and a commit of its own.
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
  private readonly recentlyEnded: RecentlyEndedCommands;
  private readonly maxStoredResponseBytes: number;

  constructor(
    @InjectDeliveryDataSource() private readonly dataSource: DataSource,
    private readonly outbox: TransactionalOutbox,
    private readonly dispatch: DispatchSignal,
    @Inject(COMMAND_SERVICE_CONFIG) config: CommandServiceConfig,
  ) {
    this.recentlyEnded = new RecentlyEndedCommands(config.tuning.recentlyEndedCapacity);
    this.maxStoredResponseBytes = config.tuning.maxStoredResponseBytes;
  }

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
      const rows = await runStatement(transaction, failPendingCommands, {
        commandUuids,
        result: JSON.stringify({ error }),
      });
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
    let laneWaiting: boolean;
    let handedOver: ClaimedCommand[];
    try {
      ({ changed, laneWaiting, handedOver } = await this.apply(batch));
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
    // Their charge points' next commands were handed over to this instance's dispatcher, or, where that was not
    // possible, may be claimed now. A lane with none is left alone: claiming at every ending made a claim statement
    // every few milliseconds that found nothing (commands created into an idle lane are stored leased and need none).
    for (const command of handedOver) this.dispatch.deliverLeased(command);
    if (laneWaiting) this.dispatch.notify();
    if (changed.size > 0) void this.outbox.flush();
    for (const transition of batch) transition.resolve(changed.has(transition));
  }

  /**
   * One batch in one statement (one round trip, one commit): see applyCommandTransitions. The first ending queued for a
   * command wins; the first known time of sending is kept. Returns the transitions that changed their command.
   */
  private async apply(
    batch: QueuedTransition[],
  ): Promise<{ changed: Set<QueuedTransition>; laneWaiting: boolean; handedOver: ClaimedCommand[] }> {
    const byCommand = new Map<string, BatchedCommand>();
    for (const transition of batch) {
      let command = byCommand.get(transition.commandUuid);
      if (!command) {
        command = { wantsSent: false, sentAt: null, ending: undefined };
        byCommand.set(transition.commandUuid, command);
      }
      if (!transition.ending || transition.ending.wasSent) {
        command.wantsSent = true;
        command.sentAt ??= transition.sentAt;
      }
      command.ending ??= transition.ending;
    }
    const commands = [...byCommand];
    const stored = commands.map(([, command]) => storedEnding(command.ending, this.maxStoredResponseBytes));
    const leases = this.dispatch.leaseTerms();
    const rows = await runStatement(this.dataSource, applyCommandTransitions, {
      uuids: commands.map(([uuid]) => uuid),
      wantsSent: commands.map(([, command]) => command.wantsSent),
      sentAts: commands.map(([, command]) => command.sentAt),
      endings: commands.map(([, command]) => command.ending?.status ?? null),
      results: stored.map((ending) => ending?.result ?? null),
      responses: stored.map((ending) => ending?.response ?? null),
      sentEventIds: commands.map(() => randomUUID()),
      endingEventIds: commands.map(() => randomUUID()),
      subject: CommandSubjects.statusChanged,
      leaseOwner: leases?.owner ?? null,
      leaseMs: leases?.leaseMs ?? 0,
      leaseLimit: leases?.limit ?? 0,
      countSlot: batchCountSlot(),
    });
    const changedRows = rows.filter((row) => !row.handed_over);
    const handedOver = rows.filter((row) => row.handed_over).map(({ handed_over: _, ...command }) => command);
    const sentNow = new Set(changedRows.filter((row) => row.passed_sent).map((row) => row.uuid));
    const endedNow = new Set(changedRows.filter((row) => row.ended).map((row) => row.uuid));
    const changed = new Set<QueuedTransition>();
    for (const transition of batch) {
      const uuid = transition.commandUuid;
      const applied = transition.ending
        ? endedNow.has(uuid) && byCommand.get(uuid)!.ending === transition.ending
        : sentNow.has(uuid);
      if (applied) changed.add(transition);
    }
    return { changed, laneWaiting: changedRows.some((row) => row.lane_waiting), handedOver };
  }

  /**
   * The status events of commands that just ended and their counts, after their lanes' next commands were made due
   * at once (they may have been waiting behind these, scheduled for later). Returns how many ended.
   */
  private async recordEnded(manager: EntityManager, rows: EndedRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    // Command rows first (the lanes' next commands), counts last: see countStatusChanges.
    await runStatement(manager, wakeCommandLanes, {
      controllerUuids: [...new Set(rows.map((row) => row.controller_uuid))],
    });
    await recordStatusChanges(
      this.outbox,
      manager,
      rows.map((row) => ({ row, previousStatus: row.previous })),
    );
    return rows.length;
  }
}
