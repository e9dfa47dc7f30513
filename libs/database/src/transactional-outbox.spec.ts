import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@cpc/contracts';
import { currentRequestId, runWithRequestId } from '@cpc/logging';
import type { JetStreamEventBus } from '@cpc/nats';
import { jest } from '@jest/globals';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { poolOf } from './pool-query.js';
import { testServerDataSource } from './testing/test-server.js';
import { TransactionalOutbox } from './transactional-outbox.js';

/** What the outbox asks of the event bus; fails while `failing` is set, as a publish to a NATS that is away does. */
class RecordingEventBus {
  readonly published: { subject: string; index: number }[] = [];
  /** The request each publish ran in, if any. */
  readonly requestIds: (string | undefined)[] = [];
  failing = false;
  private held: { indexes: Set<number>; reached: () => void; released: Promise<void> } | undefined;

  async publish(subject: string, envelope: EventEnvelope<unknown>): Promise<void> {
    this.requestIds.push(currentRequestId());
    const index = (envelope.data as { index: number }).index;
    if (this.held?.indexes.delete(index)) {
      this.held.reached();
      await this.held.released;
    }
    await Promise.resolve();
    if (this.failing) throw new Error('no responders');
    this.published.push({ subject, index });
  }

  /**
   * Holds the first publish of each of these events (as a slow acknowledgement would) until `release`; `reached`
   * resolves when the first of them is published.
   */
  hold(indexes: number[]): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { indexes: new Set(indexes), reached, released };
    return { reached: reachedPromise, release };
  }
}

const range = (length: number) => Array.from({ length }, (_, index) => index);

function event(index: number) {
  return {
    subject: `events.test.outbox.${index % 3}`,
    envelope: {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: randomUUID(),
      data: { index },
    },
  };
}

/** Real PostgreSQL: an outbox table of its own in the maintenance database, dropped afterwards. */
describe('TransactionalOutbox', () => {
  const table = `outbox_spec_${randomUUID().replaceAll('-', '')}`;
  let dataSource: DataSource;
  let bus: RecordingEventBus;
  let outbox: TransactionalOutbox;

  /** An outbox on the spec's table; a second one is what another instance of a service has. */
  const outboxOnTheTable = (abandonedRelayAfterMs?: number) =>
    new TransactionalOutbox(dataSource, bus as unknown as JetStreamEventBus, {
      table,
      relayIntervalMs: 60_000,
      batchSize: 4,
      abandonedRelayAfterMs,
    });
  const relayLockWaiters = async () =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND classid = 1868722040 AND objid = hashtext($1)::oid`,
          [table],
        )
      )[0].n,
    );
  const waiting = async () => Number((await dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const add = (indexes: number[]) =>
    dataSource.transaction((manager) => outbox.add(manager, indexes.map(event)));

  beforeAll(async () => {
    dataSource = await testServerDataSource(3);
    await dataSource.query(`CREATE TABLE ${table} (
      event_id uuid PRIMARY KEY, tenant_uuid uuid NOT NULL, subject varchar(200) NOT NULL, envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
    await dataSource.query(`CREATE INDEX ON ${table} (created_at)`);
  });

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM ${table}`);
    bus = new RecordingEventBus();
    outbox = outboxOnTheTable();
  });

  afterAll(async () => {
    await dataSource?.query(`DROP TABLE IF EXISTS ${table}`);
    await dataSource?.destroy();
  });

  it('publishes committed events in the order they were written, batch after batch, and deletes them', async () => {
    await add([0, 1, 2]);
    await add([3, 4, 5, 6, 7, 8]);
    await add([9]);

    await outbox.flush();

    expect(bus.published.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(bus.published[4].subject).toBe('events.test.outbox.1');
    expect(await waiting()).toBe(0);
  });

  it('sends a batch to PostgreSQL in two round trips: begin, lock and take at once, then the commit', async () => {
    await add([0, 1, 2]);
    const pool = poolOf(dataSource);
    const spies: ReturnType<typeof spyOnQueries>[] = [];
    const spyOnQueries = (client: PoolClient) => jest.spyOn(client, 'query');
    const onAcquire = (client: PoolClient) => spies.push(spyOnQueries(client));
    pool.on('acquire', onAcquire);
    try {
      await outbox.flush();
    } finally {
      pool.off('acquire', onAcquire);
    }
    const sent = spies.flatMap((spy) => {
      const calls = spy.mock.calls.map(([query]) => (typeof query === 'string' ? query : '(with values)'));
      spy.mockRestore();
      return calls;
    });
    expect(bus.published.map((p) => p.index)).toEqual([0, 1, 2]);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^BEGIN;.*pg_advisory_xact_lock.*DELETE FROM/s);
    expect(sent[1]).toBe('COMMIT');
  });

  it("relays outside the request that set it going: not bound by that request's id or deadline", async () => {
    await add([0, 1]);
    await runWithRequestId('creating-request', () => outbox.flush(), Date.now() - 1);
    expect(bus.published.map((p) => p.index)).toEqual([0, 1]);
    expect(bus.requestIds).toEqual([undefined, undefined]);
  });

  it('never publishes the events of a transaction that rolled back', async () => {
    await dataSource
      .transaction(async (manager) => {
        await outbox.add(manager, [event(0)]);
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await add([1]);

    await outbox.flush();

    expect(bus.published.map((p) => p.index)).toEqual([1]);
  });

  it('keeps a batch whose publish failed and publishes it, in order, once publishing works again', async () => {
    await add([0, 1, 2, 3, 4, 5]);
    bus.failing = true;

    await outbox.flush();
    expect(bus.published).toEqual([]);
    expect(await waiting()).toBe(6);

    bus.failing = false;
    await outbox.flush();
    expect(bus.published.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await waiting()).toBe(0);
  });

  it('lets two relays share the table without publishing an event twice', async () => {
    await add(range(40));
    const other = outboxOnTheTable();

    await Promise.all([outbox.flush(), other.flush()]);

    const indexes = bus.published.map((p) => p.index);
    expect(indexes.sort((a, b) => a - b)).toEqual(range(40));
    expect(await waiting()).toBe(0);
  });

  it("keeps the order across relays of two instances: one's batch waits for the other's commit", async () => {
    await add(range(12));
    const other = outboxOnTheTable();
    const firstBatch = bus.hold([0, 1, 2, 3]);
    const first = outbox.flush();
    await firstBatch.reached;

    const second = other.flush();
    let publishedMeanwhile: number[];
    try {
      // The second relay either waits for the relay lock or, taking the rows past the locked ones, publishes them.
      while (bus.published.length === 0 && (await relayLockWaiters()) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      publishedMeanwhile = bus.published.map((p) => p.index);
    } finally {
      firstBatch.release();
      await Promise.all([first, second]);
    }

    expect(publishedMeanwhile).toEqual([]);

    expect(bus.published.map((p) => p.index)).toEqual(range(12));
    expect(await waiting()).toBe(0);
  });

  it("goes on when another instance's relay went silent holding the lock: PostgreSQL ends that transaction", async () => {
    await add(range(12));
    const silent = outboxOnTheTable(300);
    const neverAnswered = bus.hold([0, 1, 2, 3]);
    const silentRelay = silent.flush();
    await neverAnswered.reached;

    let publishedByTheOther: number[];
    try {
      await outbox.flush();
      publishedByTheOther = bus.published.map((p) => p.index);
    } finally {
      neverAnswered.release();
      await silentRelay;
    }

    expect(publishedByTheOther).toEqual(range(12));
    expect(await waiting()).toBe(0);
  });
});
