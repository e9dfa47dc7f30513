import { Inject, Injectable, Logger } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { CommandSubjects } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import {
  createCommandClaimingKey,
  createCommands,
  type NewCommandColumns,
} from '../../repositories/commands.repository.js';
import { batchCountSlot, compareCountKeys, type CountKey } from '../command-counts.js';
import type { StoredCommand } from '../command-row.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';

/** A command to store `pending`, with its first status event (as JSON, created_at filled in by the database). */
export interface NewCommand {
  uuid: string;
  tenantUuid: string;
  type: string;
  targetType: string;
  targetUuid: string;
  controllerUuid: string;
  /** JSON */
  target: string;
  /** JSON */
  parameters: string;
  validForSeconds: number;
  eventId: string;
  /** JSON of the status event */
  event: string;
  /** The creating request's traceparent when it is traced (sampled). */
  traceparent: string | null;
}

type QueuedInsert = GroupedCall<NewCommand, StoredCommand>;

/**
 * Stores created commands (those without an Idempotency-Key) group-committed: creations that arrive while
 * tuning.creationBatchesInFlight batches are being written go together into the next one. A batch is one statement (the commands, their first
 * status events into the outbox, their counts) and one commit, so under load a creation costs a share of a round
 * trip and of a WAL flush instead of one of each. A failed batch is written again one command at a time, so a
 * command can only fail for a reason of its own.
 */
@Injectable()
export class CommandInserts {
  private readonly logger = new Logger(CommandInserts.name);
  /** tuning.creationBatchesInFlight batches at once, of at most tuning.creationBatchSize commands. */
  private readonly inserts: GroupedCalls<NewCommand, StoredCommand>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatch: DispatchSignal,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {
    this.inserts = new GroupedCalls<NewCommand, StoredCommand>((batch) => this.writeBatch(batch), {
      maxInFlight: config.tuning.creationBatchesInFlight,
      maxGroup: config.tuning.creationBatchSize,
    });
  }

  /**
   * Stores the command `pending`; resolves with its row once committed. Stored leased, it is already handed to the
   * dispatcher.
   */
  insert(command: NewCommand): Promise<StoredCommand> {
    return this.inserts.call(command);
  }

  /**
   * Stores one command together with the claim of its Idempotency-Key, in one statement; undefined (nothing
   * written) when another request holds the key.
   */
  async insertClaimingKey(
    command: NewCommand,
    key: string,
    fingerprint: string,
  ): Promise<StoredCommand | undefined> {
    const [row] = await runStatement(this.dataSource, createCommandClaimingKey, {
      ...columnsOf([command]),
      idempotencyKey: key,
      fingerprint,
    });
    return row;
  }

  private async writeBatch(batch: QueuedInsert[]): Promise<void> {
    let rows: StoredCommand[];
    try {
      rows = await this.write(batch.map((queued) => queued.item));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      this.logger.warn(`a batch of ${batch.length} new commands failed, writing them one by one`);
      for (const queued of batch) await this.writeBatch([queued]);
      return;
    }
    for (const row of rows) if (row.leased) this.dispatch.deliverLeased(row);
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    for (const queued of batch) {
      const row = byUuid.get(queued.item.uuid);
      if (row) queued.resolve(row);
      else queued.reject(new Error(`command ${queued.item.uuid} was not stored`));
    }
  }

  private write(commands: NewCommand[]): Promise<StoredCommand[]> {
    const leases = this.dispatch.leaseTerms();
    return runStatement(this.dataSource, createCommands, {
      ...columnsOf(commands),
      leaseOwner: leases?.owner ?? null,
      leaseMs: leases?.leaseMs ?? 0,
      leaseLimit: Math.min(leases?.limit ?? 0, this.config.tuning.creationMaxLeasesPerBatch),
    });
  }
}

/** The columns of createCommands for `commands`. */
function columnsOf(commands: NewCommand[]): NewCommandColumns {
  const countSlot = batchCountSlot();
  const keys = commands.map((command): CountKey => [
    command.tenantUuid,
    command.targetType,
    command.type,
    'pending',
    countSlot,
  ]);
  const byCountKey = keys.map((_, index) => index).sort((a, b) => compareCountKeys(keys[a], keys[b]));
  const countRank = new Array<number>(commands.length);
  byCountKey.forEach((index, rank) => (countRank[index] = rank));
  const column = <T>(pick: (command: NewCommand) => T) => commands.map(pick);
  return {
    uuids: column((command) => command.uuid),
    tenantUuids: column((command) => command.tenantUuid),
    types: column((command) => command.type),
    targetTypes: column((command) => command.targetType),
    targetUuids: column((command) => command.targetUuid),
    controllerUuids: column((command) => command.controllerUuid),
    targets: column((command) => command.target),
    parameters: column((command) => command.parameters),
    validForSeconds: column((command) => command.validForSeconds),
    eventIds: column((command) => command.eventId),
    events: column((command) => command.event),
    subject: CommandSubjects.statusChanged,
    countRanks: countRank,
    countSlot,
    traceparents: column((command) => command.traceparent),
  };
}
