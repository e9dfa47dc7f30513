import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type CommandResult, CommandSubjects } from '@cpc/contracts';
import { isDataException, runStatement, TransactionalOutbox } from '@cpc/database';
import { describeError } from '@cpc/errors';
import { CommandResultError, type TerminalCommandStatus } from '@cpc/ocpp-commands';
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
import { storableJson } from './storable-json.js';

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
 * An ending's result and answer as JSON for the database, NUL characters replaced (storableJson). An answer larger
 * than `maxResponseBytes` as stored is not kept; the result says how large it was instead (`response_omitted_bytes`).
 */
export function storedEnding(
  ending: CommandEnding | undefined,
  maxResponseBytes: number,
): { result: string; response: string | null } | undefined {
  if (!ending) return undefined;
  const response = ending.response === undefined ? null : (storableJson(ending.response) ?? null);
  const bytes = response === null ? 0 : Buffer.byteLength(response);
  if (bytes <= maxResponseBytes) return { result: storableJson(ending.result)!, response };
  return { result: storableJson({ ...ending.result, response_omitted_bytes: bytes })!, response: null };
}

/**
 * What an ending becomes when the database refused its data (a data exception, which no retry changes): an answer
 * it cannot store is one the platform cannot take, as an invalid one (`invalid_response`, without the answer); any
 * other ending stays, only without its time of sending (the one value of it from outside). Ending the command this
 * way, not retrying it, keeps its charge point's later commands from waiting behind it forever.
 */
export function storableFallback(ending: CommandEnding): CommandEnding {
  if (ending.response === undefined) return { ...ending, sentAt: null };
  return {
    status: 'failed',
    result: { error: CommandResultError.InvalidResponse },
    wasSent: ending.wasSent,
    sentAt: null,
  };
}

/** The charge point whose gateway event reported a transition (its tenant and controller). */
export interface ReportingChargePoint {
  tenantUuid: string;
  controllerUuid: string;
}

/**
 * What a transition did: `changed` the command; `unchanged` (it had moved on already, or it is unknown); `foreign`:
 * refused, the charge point that reported it is not the command's own.
 */
export type TransitionOutcome = 'changed' | 'unchanged' | 'foreign';

/** A markSent (no ending) or finish waiting for the next batch; `resolve` says what it did. */
interface QueuedTransition {
  commandUuid: string;
  sentAt: string | null;
  ending?: CommandEnding;
  /** Null: no check (the dispatcher's own reply, from the command's lane itself). */
  reportedBy: ReportingChargePoint | null;
  /** Written again without its data from outside after the database refused that data: never a third time. */
  fallback?: true;
  resolve: (outcome: TransitionOutcome) => void;
  reject: (error: unknown) => void;
}

/** A charge point as RecentlyEndedCommands and the batches compare them; '' for no reporter. */
function chargePointKey(chargePoint: ReportingChargePoint | null): string {
  return chargePoint ? `${chargePoint.tenantUuid}/${chargePoint.controllerUuid}`.toLowerCase() : '';
}

/**
 * The transitions of `queued` that can go into one batch: every command there with one reporter (the first queued
 * for it), since the batch writes one row per command; the others wait for the next batch.
 */
function oneReporterPerCommand(queued: QueuedTransition[]): {
  batch: QueuedTransition[];
  later: QueuedTransition[];
} {
  const batch: QueuedTransition[] = [];
  const later: QueuedTransition[] = [];
  const reporters = new Map<string, string>();
  for (const transition of queued) {
    const key = chargePointKey(transition.reportedBy);
    const first = reporters.get(transition.commandUuid);
    if (first === undefined) reporters.set(transition.commandUuid, key);
    (first === undefined || first === key ? batch : later).push(transition);
  }
  return { batch, later };
}

/** What a batch does to one command: all its transitions in the batch merged. */
interface BatchedCommand {
  /** The charge point that reported its transitions; null: no check. */
  reportedBy: ReportingChargePoint | null;
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
 * nothing. Each change writes its status event in the same transaction. A transition a gateway event reported
 * (`reported`) changes its command only when the event's charge point (tenant and controller) is the command's own.
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
  async markSent(commandUuid: string, sentAt: string | null): Promise<boolean> {
    return (await this.enqueue(commandUuid, sentAt, undefined, null)) === 'changed';
  }

  /**
   * pending/sent → terminal; false when it had ended already. The charge point's next command becomes due. An ending
   * whose data the database refuses ends the command anyway (storableFallback).
   */
  async finish(commandUuid: string, ending: CommandEnding): Promise<boolean> {
    return (await this.enqueue(commandUuid, ending.sentAt ?? null, ending, null)) === 'changed';
  }

  /**
   * markSent (without `ending`) or finish as a gateway event reports it: `foreign`, changing nothing, when the command
   * is not of `reportedBy` (another tenant, another charge point: a misrouted or forged event).
   */
  reported(
    commandUuid: string,
    change: { sentAt: string | null; ending?: CommandEnding },
    reportedBy: ReportingChargePoint,
  ): Promise<TransitionOutcome> {
    const sentAt = change.ending ? (change.ending.sentAt ?? null) : change.sentAt;
    return this.enqueue(commandUuid, sentAt, change.ending, reportedBy);
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

  private enqueue(
    commandUuid: string,
    sentAt: string | null,
    ending: CommandEnding | undefined,
    reportedBy: ReportingChargePoint | null,
  ): Promise<TransitionOutcome> {
    if (this.knownEnded(commandUuid, reportedBy)) return Promise.resolve('unchanged');
    return new Promise<TransitionOutcome>((resolve, reject) => {
      this.queued.push({ commandUuid, sentAt, ending, reportedBy, resolve, reject });
      void this.writeQueued();
    });
  }

  /** Writes what is queued, a batch at a time, until nothing is left. */
  private async writeQueued(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queued.length > 0) {
        const { batch, later } = oneReporterPerCommand(this.withoutEnded(this.queued));
        this.queued = later;
        if (batch.length > 0) await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * Whether the command is known to have ended, so that the transition changes nothing; a reported one only when the
   * command is known to be of that charge point: a foreign one must reach the check.
   */
  private knownEnded(commandUuid: string, reportedBy: ReportingChargePoint | null): boolean {
    return this.recentlyEnded.has(commandUuid, reportedBy ? chargePointKey(reportedBy) : undefined);
  }

  /**
   * The queued transitions less those whose command a batch written since they were queued ended, which are answered
   * `unchanged` at once: the gateway's durable call-completed event typically arrives while its reply's ending is being
   * written, and would otherwise be a statement of its own that changes nothing.
   */
  private withoutEnded(queued: QueuedTransition[]): QueuedTransition[] {
    return queued.filter((transition) => {
      if (!this.knownEnded(transition.commandUuid, transition.reportedBy)) return true;
      transition.resolve('unchanged');
      return false;
    });
  }

  private async writeBatch(batch: QueuedTransition[]): Promise<void> {
    let changed: Set<QueuedTransition>;
    let foreign: Set<string>;
    let lanes: Map<string, string>;
    let laneWaiting: boolean;
    let handedOver: ClaimedCommand[];
    try {
      ({ changed, foreign, lanes, laneWaiting, handedOver } = await this.apply(batch));
    } catch (error) {
      if (batch.length === 1) {
        const [transition] = batch;
        if (!isDataException(error) || transition.fallback) {
          transition.reject(error);
          return;
        }
        // Its data will never be stored, and retrying it held its lane forever: written again without that data.
        this.logger.warn(
          `transition of command ${transition.commandUuid} refused by the database, written without its data ` +
            `from outside: ${describeError(error)}`,
        );
        const ending = transition.ending && storableFallback(transition.ending);
        await this.writeBatch([{ ...transition, sentAt: null, ending, fallback: true }]);
        return;
      }
      // One command must not hold up the others (were anything wrong with one of them): each alone.
      this.logger.warn(`a batch of ${batch.length} transitions failed, writing them one by one`);
      for (const transition of batch) await this.writeBatch([transition]);
      return;
    }
    // Committed: every command this batch had an ending for is terminal now, whether this batch ended it or not (a
    // refused report aside), remembered with its charge point where known: a report from it needs no check again.
    for (const transition of batch) {
      const uuid = transition.commandUuid;
      if (!transition.ending || foreign.has(uuid)) continue;
      const reporter = transition.reportedBy ? chargePointKey(transition.reportedBy) : undefined;
      this.recentlyEnded.add(uuid, lanes.get(uuid) ?? reporter);
    }
    // Their charge points' next commands were handed over to this instance's dispatcher, or, where that was not
    // possible, may be claimed now. A lane with none is left alone: claiming at every ending made a claim statement
    // every few milliseconds that found nothing (commands created into an idle lane are stored leased and need none).
    for (const command of handedOver) this.dispatch.deliverLeased(command);
    if (laneWaiting) this.dispatch.notify();
    if (changed.size > 0) void this.outbox.flush();
    for (const transition of batch) {
      const uuid = transition.commandUuid;
      transition.resolve(
        transition.reportedBy && foreign.has(uuid)
          ? 'foreign'
          : changed.has(transition)
            ? 'changed'
            : 'unchanged',
      );
    }
  }

  /**
   * One batch in one statement (one round trip, one commit): see applyCommandTransitions. The first ending queued for a
   * command wins; the first known time of sending is kept (a batch holds one reporter per command). Returns the
   * transitions that changed their command, the commands whose reporter was refused, and the charge point
   * (chargePointKey) of each command changed.
   */
  private async apply(batch: QueuedTransition[]): Promise<{
    changed: Set<QueuedTransition>;
    foreign: Set<string>;
    lanes: Map<string, string>;
    laneWaiting: boolean;
    handedOver: ClaimedCommand[];
  }> {
    const byCommand = new Map<string, BatchedCommand>();
    for (const transition of batch) {
      let command = byCommand.get(transition.commandUuid);
      if (!command) {
        command = { reportedBy: transition.reportedBy, wantsSent: false, sentAt: null, ending: undefined };
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
      reporterTenantUuids: commands.map(([, command]) => command.reportedBy?.tenantUuid ?? null),
      reporterControllerUuids: commands.map(([, command]) => command.reportedBy?.controllerUuid ?? null),
      sentEventIds: commands.map(() => randomUUID()),
      endingEventIds: commands.map(() => randomUUID()),
      subject: CommandSubjects.statusChanged,
      leaseOwner: leases?.owner ?? null,
      leaseMs: leases?.leaseMs ?? 0,
      leaseLimit: leases?.limit ?? 0,
      countSlot: batchCountSlot(),
    });
    const changedRows = rows.filter((row) => !row.handed_over && !row.foreign_report);
    const handedOver = rows
      .filter((row) => row.handed_over)
      .map(({ handed_over: _, foreign_report: __, ...command }) => command);
    const foreign = new Set(rows.filter((row) => row.foreign_report).map((row) => row.uuid));
    const lanes = new Map(
      changedRows.map((row) => [
        row.uuid,
        chargePointKey({ tenantUuid: row.tenant_uuid, controllerUuid: row.controller_uuid }),
      ]),
    );
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
    return { changed, foreign, lanes, laneWaiting: changedRows.some((row) => row.lane_waiting), handedOver };
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
