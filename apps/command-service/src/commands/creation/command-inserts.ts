import { Injectable, Logger } from '@nestjs/common';
import { type GroupedCall, GroupedCalls } from '@cpc/call-grouping';
import { CommandSubjects } from '@cpc/contracts';
import { namedQuery, TransactionalOutbox } from '@cpc/database';
import { DataSource } from 'typeorm';
import {
  commandCountSlot,
  compareCountKeys,
  countCreatedBatchSql,
  type CountKey,
} from '../command-counts.js';
import { COMMAND_ROW_COLUMNS, type CommandRow, isoSecondsSql } from '../command-record.js';
import type { ClaimedCommand } from '../delivery/delivery-queue.js';
import { DispatchSignal } from '../delivery/dispatch-signal.js';
import { claimKeySql } from './idempotency-keys.js';

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
}

/** A stored command; `leased` when it was stored leased to this instance's dispatcher (see insertStatement). */
export type StoredCommand = CommandRow & ClaimedCommand & { leased: boolean };

type QueuedInsert = GroupedCall<NewCommand, StoredCommand>;

/**
 * Most commands one creation statement stores leased: each takes an advisory lock until its commit, in a lock table
 * all connections share (max_locks_per_transaction × max_connections entries, 6,400 by default).
 */
const MAX_LEASES_PER_BATCH = 64;

/**
 * Stores created commands (those without an Idempotency-Key) group-committed: creations that arrive while four
 * batches are being written go together into the next one. A batch is one statement (the commands, their first
 * status events into the outbox, their counts) and one commit, so under load a creation costs a share of a round
 * trip and of a WAL flush instead of one of each. A failed batch is written again one command at a time, so a
 * command can only fail for a reason of its own.
 */
@Injectable()
export class CommandInserts {
  private readonly logger = new Logger(CommandInserts.name);
  /**
   * Up to four batches are written at once. Each holds a connection only for its one statement; more than one lets a
   * batch that waits for a count row (held by a status change until it commits) not hold up every creation behind
   * it. At most 500 per batch, so one statement's parameters stay small.
   */
  private readonly inserts = new GroupedCalls<NewCommand, StoredCommand>((batch) => this.writeBatch(batch), {
    maxInFlight: 4,
    maxGroup: 500,
  });
  private readonly statement: string;
  private readonly claimingStatement: string;

  constructor(
    private readonly dataSource: DataSource,
    outbox: TransactionalOutbox,
    private readonly dispatch: DispatchSignal,
  ) {
    this.statement = insertStatement(outbox, undefined);
    this.claimingStatement = insertStatement(
      outbox,
      claimKeySql({
        tenantUuid: '($2::uuid[])[1]',
        key: '$14',
        fingerprint: '$15',
        commandUuid: '($1::uuid[])[1]',
      }),
    );
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
    const [row] = await namedQuery<StoredCommand>(this.dataSource, {
      name: 'commands.create-with-key',
      text: this.claimingStatement,
      values: [...columnsOf([command]), key, fingerprint],
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
    for (const row of rows) if (row.leased) this.dispatch.deliverCreated(row);
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    for (const queued of batch) {
      const row = byUuid.get(queued.item.uuid);
      if (row) queued.resolve(row);
      else queued.reject(new Error(`command ${queued.item.uuid} was not stored`));
    }
  }

  private write(commands: NewCommand[]): Promise<StoredCommand[]> {
    const leases = this.dispatch.leasesForCreation();
    return namedQuery<StoredCommand>(this.dataSource, {
      name: 'commands.create-batch',
      text: this.statement,
      values: [
        ...columnsOf(commands),
        leases?.owner ?? null,
        leases?.leaseMs ?? 0,
        Math.min(leases?.limit ?? 0, MAX_LEASES_PER_BATCH),
      ],
    });
  }
}

/**
 * The statement storing commands from the parameters of columnsOf: the commands (in the given order: their
 * created_at, hence each charge point's delivery order, follows it), their first status events into the outbox and
 * their counts (count_rank orders the count rows by the global lock order); with `claim`, only if it claims the key.
 * Without `claim`, $14 may name a dispatcher ($15: its lease in ms, $16: at most this many): the first command of each
 * charge point in the batch, up to $16 of them, is stored already leased to it when control.lane_is_free finds the
 * charge point with no open command, so that dispatcher delivers it at once instead of claiming it first.
 */
function insertStatement(outbox: TransactionalOutbox, claim: string | undefined): string {
  const leasing =
    claim === undefined
      ? `, lane_first AS (
      SELECT DISTINCT ON (controller_uuid) uuid, controller_uuid, position
        FROM input WHERE $14::text IS NOT NULL ORDER BY controller_uuid, position
    ), leased AS MATERIALIZED (
      SELECT uuid FROM (SELECT uuid, controller_uuid FROM lane_first ORDER BY position LIMIT $16) candidate
       WHERE control.lane_is_free(candidate.controller_uuid, NULL)
    )`
      : '';
  const lease =
    claim === undefined
      ? `CASE WHEN x.uuid IN (SELECT uuid FROM leased)
                   THEN clock_timestamp() + $15 * interval '1 millisecond' END`
      : 'NULL::timestamptz';
  const owner = claim === undefined ? '$14' : 'NULL';
  return `
    WITH ${claim === undefined ? '' : `claimed AS (${claim}),`} input AS (
      SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::uuid[], $6::uuid[],
                           $7::jsonb[], $8::jsonb[], $9::float8[], $10::uuid[], $11::jsonb[], $13::int[])
             WITH ORDINALITY AS x(uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
                                  parameters, valid_for_seconds, event_id, event, count_rank, position)
      ${claim === undefined ? '' : 'WHERE EXISTS (SELECT FROM claimed)'}
    )${leasing}, command AS (
      INSERT INTO control.commands
             (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status,
              valid_until, created_at, next_attempt_at, lease_owner, lease_until, attempts)
      SELECT uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, 'pending',
             clock_timestamp() + make_interval(secs => valid_for_seconds), clock_timestamp(),
             COALESCE(lease_until, clock_timestamp()), CASE WHEN lease_until IS NOT NULL THEN ${owner} END, lease_until,
             CASE WHEN lease_until IS NOT NULL THEN 1 ELSE 0 END
        FROM (SELECT x.*, ${lease} AS lease_until FROM input x) AS x
       ORDER BY position
      RETURNING ${COMMAND_ROW_COLUMNS}, lease_owner IS NOT NULL AS leased, target, parameters, valid_until,
                target_deleted_at
    ), event AS (
      ${outbox.insertSql(`
        SELECT i.event_id, c.tenant_uuid, $12,
               jsonb_set(i.event, '{data,command,created_at}',
                         to_jsonb(${isoSecondsSql('c.created_at')})),
               clock_timestamp()
          FROM command c JOIN input i ON i.uuid = c.uuid
         ORDER BY i.position`)}
    ), counted AS (${countCreatedBatchSql('command', 'input')})
    SELECT * FROM command`;
}

/** Parameters $1-$13 of insertStatement for `commands`. */
function columnsOf(commands: NewCommand[]): unknown[] {
  const keys = commands.map((command): CountKey => [
    command.tenantUuid,
    command.targetType,
    command.type,
    'pending',
    commandCountSlot(command.uuid),
  ]);
  const byCountKey = keys.map((_, index) => index).sort((a, b) => compareCountKeys(keys[a], keys[b]));
  const countRank = new Array<number>(commands.length);
  byCountKey.forEach((index, rank) => (countRank[index] = rank));
  const column = <T>(pick: (command: NewCommand) => T) => commands.map(pick);
  return [
    column((command) => command.uuid),
    column((command) => command.tenantUuid),
    column((command) => command.type),
    column((command) => command.targetType),
    column((command) => command.targetUuid),
    column((command) => command.controllerUuid),
    column((command) => command.target),
    column((command) => command.parameters),
    column((command) => command.validForSeconds),
    column((command) => command.eventId),
    column((command) => command.event),
    CommandSubjects.statusChanged,
    countRank,
  ];
}
