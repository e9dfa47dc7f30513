import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventEnvelope } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import pg, { type QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { describeError } from '@cpc/errors';
import { runOutsideRequest } from '@cpc/logging';
import { checkOut, namedQuery, poolOf } from './pool-query.js';

export interface TransactionalOutboxOptions {
  /**
   * Schema-qualified table with the columns event_id uuid PK, tenant_uuid uuid, subject varchar, envelope jsonb,
   * created_at timestamptz (see the migrations of command-service and assets-service).
   */
  table: string;
  /** How often what could not be published right after its commit is retried. */
  relayIntervalMs: number;
  batchSize?: number;
  /**
   * PostgreSQL ends a relay's transaction that has waited this long for its client (default 60 s, far beyond a
   * publish's own timeout): a relay on a machine that vanished would otherwise hold the relay lock, and stop every
   * instance's relay, until the dead connection is noticed, which can take hours.
   */
  abandonedRelayAfterMs?: number;
}

/** An event for the outbox: the subject it is published on and its envelope. */
export interface OutboxEvent {
  subject: string;
  envelope: EventEnvelope<unknown>;
}

/**
 * TransactionalOutbox.insertSql for the outbox on `table`, for statements written before any outbox exists (their SQL
 * snapshots): the same text.
 */
export function outboxInsertSql(table: string, select: string): string {
  return `INSERT INTO ${table} (event_id, tenant_uuid, subject, envelope, created_at) ${select}`;
}

/** 'obox' in ASCII: the first key of the relay's advisory lock, apart from the database's other advisory locks. */
const OUTBOX_LOCK_CLASS = 1868722040;

interface PendingEvent {
  event_id: string;
  subject: string;
  envelope: EventEnvelope<unknown>;
}

/**
 * Durable events that must neither be lost nor published for a change that did not commit: the event row is
 * written in the change's own transaction, published to JetStream after the commit and deleted once JetStream
 * acknowledged it. A relay retries whatever is left (NATS down, a crash in between). JetStream drops a repeated
 * publish of the same event id within its duplicate window, so a retry does not deliver twice. Events leave in the
 * order they were written: a batch is published all at once without waiting for each acknowledgement in turn, and
 * one connection keeps them in that order in the stream; only when a publish of a batch fails may later ones of it be
 * in the stream before the failed one follows on retry. The instances of a service relay one batch at a time, under
 * an advisory lock held until the batch's commit: side by side (as SKIP LOCKED alone let them), a later batch of one
 * instance could reach the stream before an earlier batch of another, and a command's `sent` overtake its `pending`.
 */
export class TransactionalOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TransactionalOutbox.name);
  private timer: NodeJS.Timeout | undefined;
  private relaying: Promise<void> = Promise.resolve();
  private queued = false;
  private reportedFailure = false;
  private stopped = false;

  /** The relay's first round trip, see takeBatchSql. */
  private readonly takeBatch: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly eventBus: JetStreamEventBus,
    private readonly options: TransactionalOutboxOptions,
  ) {
    this.takeBatch = takeBatchSql(options.table, this.batchSize, options.abandonedRelayAfterMs ?? 60_000);
  }

  /**
   * Writes the events with the caller's transaction, in one statement; their times follow the list's order (a
   * microsecond apart), so they leave in that order.
   */
  async add(manager: EntityManager, events: OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await namedQuery(manager, {
      name: `outbox.add:${this.options.table}`,
      text: `INSERT INTO ${this.options.table} (event_id, tenant_uuid, subject, envelope, created_at)
             SELECT x.event_id, x.tenant_uuid, x.subject, x.envelope,
                    clock_timestamp() + (x.position - 1) * interval '1 microsecond'
               FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::jsonb[]) WITH ORDINALITY
                    AS x(event_id, tenant_uuid, subject, envelope, position)`,
      values: [
        events.map(({ envelope }) => envelope.eventId),
        events.map(({ envelope }) => envelope.tenantUuid),
        events.map(({ subject }) => subject),
        events.map(({ envelope }) => JSON.stringify(envelope)),
      ],
    });
  }

  /**
   * An INSERT of the events `select` yields (columns: event_id, tenant_uuid, subject, envelope, created_at: the order
   * they leave in), for a statement that writes its change and the change's events at once (e.g. as a CTE); written
   * with it, published as by add().
   */
  insertSql(select: string): string {
    return outboxInsertSql(this.options.table, select);
  }

  /** Publishes what is waiting; a run in progress is followed by one more, so nothing written before is missed. */
  flush(): Promise<void> {
    if (this.queued) return this.relaying;
    this.queued = true;
    // A request that calls this sets a run going for everyone's events: it is not the request's work.
    this.relaying = runOutsideRequest(() => this.relaying.then(() => this.relay()));
    return this.relaying;
  }

  private async relay(): Promise<void> {
    this.queued = false;
    if (this.stopped) return;
    try {
      while ((await this.publishBatch()) === this.batchSize) {
        // A full batch: more may be waiting.
      }
      if (this.reportedFailure) this.logger.log('outbox: publishing works again');
      this.reportedFailure = false;
    } catch (error) {
      if (!this.reportedFailure) {
        this.logger.warn(
          `outbox: publishing failed, retrying every ${this.options.relayIntervalMs} ms: ${describeError(error)}`,
        );
      }
      this.reportedFailure = true;
    }
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.options.relayIntervalMs);
    this.timer.unref();
    void this.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.relaying;
    this.stopped = true;
  }

  private get batchSize(): number {
    return this.options.batchSize ?? 200;
  }

  /**
   * Waits for the table's relay lock (another instance's batch is published and committed first; a transaction whose
   * client is gone is ended by PostgreSQL, see abandonedRelayAfterMs), takes the oldest waiting events and deletes
   * them in one statement, publishes them, then commits: a failed publish rolls the delete back. The transaction's
   * start, the lock and the take are one round trip (takeBatchSql), the commit another: two per batch instead of four,
   * and at a low command rate nearly every command's events are batches of their own. Planned on every run, not
   * prepared: a plan made while the table was a few pages (at start-up) kept scanning it whole once a backlog had
   * grown it to hundreds of pages, 20–40 ms a batch; planned with the table's size of the moment it deletes the
   * locked rows by their tuple ids.
   */
  private async publishBatch(): Promise<number> {
    const { client, release } = await checkOut(poolOf(this.dataSource));
    // A failure before the transaction has ended (an aborted or open one) keeps the connection from being given out.
    let ended = false;
    let unusable: Error | undefined;
    try {
      const results = (await client.query(this.takeBatch)) as unknown as QueryResult<PendingEvent>[];
      const rows = results[TAKE_RESULT].rows;
      try {
        await Promise.all(rows.map((row) => this.eventBus.publish(row.subject, row.envelope)));
      } catch (error) {
        await client.query('ROLLBACK');
        ended = true;
        throw error;
      }
      await client.query('COMMIT');
      ended = true;
      return rows.length;
    } catch (error) {
      if (!ended) unusable = error as Error;
      throw error;
    } finally {
      release(unusable);
    }
  }
}

/**
 * BEGIN, the relay lock and the take, sent as one simple-protocol query (no parameters: the values are the outbox's
 * own settings, written in as literals). Each statement still takes its own snapshot: the take, which starts once the
 * lock is held, sees the batch that the instance before it committed as deleted.
 */
function takeBatchSql(table: string, batchSize: number, abandonedAfterMs: number): string {
  return `BEGIN;
          SELECT set_config('idle_in_transaction_session_timeout',
                            '${wholeNumber(abandonedAfterMs, 'abandonedRelayAfterMs')}', true),
                 pg_advisory_xact_lock(${OUTBOX_LOCK_CLASS}, hashtext(${pg.escapeLiteral(table)}));
          WITH taken AS (
            DELETE FROM ${table}
             WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table}
                                      ORDER BY created_at LIMIT ${wholeNumber(batchSize, 'batchSize')}
                                        FOR UPDATE SKIP LOCKED))
            RETURNING event_id, subject, envelope, created_at)
          SELECT event_id, subject, envelope FROM taken ORDER BY created_at`;
}

/** The result of takeBatchSql's third statement, the take. */
const TAKE_RESULT = 2;

function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`outbox: ${name} must be a positive integer`);
  return value;
}
