import { randomUUID } from 'node:crypto';
import { runQuery } from '@cpc/database';
import { measureStatementPlan } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import {
  claimDueDeliveries,
  type DeliveryOutcome,
  fanOutEvents,
  type FannedOutEvent,
  recordOutcomes,
} from './deliveries.repository.js';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';

/**
 * The later rows of a queue follow its head: when the head's attempt fails they wait until its next attempt, and when
 * it is delivered those that waited are due at once. A receiver that is down fails its heads fast, one after the
 * other, and their followers had all stayed due: every claim of the replica (about twenty a second when idle) walked
 * past all of them to find nothing, 30,000 buffers a claim in the bench's reconnect storm after the webhooks phase.
 */

const QUEUES = 2_000;
const EVENTS_PER_QUEUE = 3;

let testDatabase: WebhooksTestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
const subscription = randomUUID();

beforeAll(async () => {
  testDatabase = await createWebhooksTestDatabase();
  ({ dataSource } = testDatabase);
  await insertCommandSubscriptions(dataSource, tenant, [subscription]);
});

beforeEach(async () => {
  await dataSource.query(`DELETE FROM webhooks.deliveries`);
  // A command's three status events per queue, all due: stream places 1…QUEUES·3, a queue's spread as a command's.
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
     SELECT gen_random_uuid(), $1, $2, 'event-' || seq, 'command.status_changed', 'command:' || (seq % ${QUEUES}),
            seq, '{}', now() - interval '1 second'
       FROM generate_series(1, ${QUEUES * EVENTS_PER_QUEUE}) AS seq`,
    [tenant, subscription],
  );
  await dataSource.query('ANALYZE webhooks.deliveries');
});

afterAll(async () => {
  await testDatabase?.drop();
});

function claimQuery(limit: number) {
  return claimDueDeliveries.query({
    limit,
    leaseMs: 30_000,
    perSubscriptionLimit: limit,
    inFlightSubscriptions: [],
    inFlightCounts: [],
    commandAckFloor: QUEUES * EVENTS_PER_QUEUE,
    chargePointAckFloor: 0,
    probeOnlyAfterMs: 10_000,
  });
}

const claim = (limit: number) =>
  runQuery<{ id: string; ordering_key: string; attempts: number }>(dataSource, claimQuery(limit));

function record(outcomes: DeliveryOutcome[]) {
  return runQuery(dataSource, recordOutcomes.query({ outcomes: JSON.stringify(outcomes) }));
}

/** A claimed row: its id and the attempt its claim counted, which names the attempt in its outcome. */
interface ClaimedRow {
  id: string;
  attempts: number;
}

const failed = ({ id, attempts }: ClaimedRow, nextAttemptAt: Date): DeliveryOutcome => ({
  id,
  attempts,
  delivered: false,
  status_code: null,
  error: 'connect ECONNREFUSED 127.0.0.1:9',
  next_attempt_at: nextAttemptAt.toISOString(),
});

const delivered = ({ id, attempts }: ClaimedRow): DeliveryOutcome => ({
  id,
  attempts,
  delivered: true,
  status_code: 204,
  error: null,
  next_attempt_at: null,
});

let nextStreamSeq = QUEUES * EVENTS_PER_QUEUE;

/** New events of the given queues, fanned out as the events consumer does, one each. */
function fanOut(orderingKeys: string[]) {
  const events: FannedOutEvent[] = orderingKeys.map((orderingKey) => {
    nextStreamSeq += 1;
    return {
      tenant_uuid: tenant,
      event_id: `event-${nextStreamSeq}`,
      event_type: 'command.status_changed',
      ordering_key: orderingKey,
      stream_seq: nextStreamSeq,
      body: '{}',
      controller_uuid: randomUUID(),
      location_uuid: null,
    };
  });
  return runQuery(dataSource, fanOutEvents.query({ events: JSON.stringify(events) }));
}

function queueRows(orderingKey: string) {
  return dataSource.query<{ id: string; status: string; next_attempt_at: Date }[]>(
    `SELECT id, status, next_attempt_at FROM webhooks.deliveries
      WHERE subscription_uuid = $1 AND ordering_key = $2 ORDER BY stream_seq`,
    [subscription, orderingKey],
  );
}

describe("a queue's later rows", () => {
  it('wait with a failed head until its next attempt, and are due at once when it is delivered', async () => {
    const [head] = await claim(1);
    const retryAt = new Date(Date.now() + 60 * 60_000);
    await record([failed(head, retryAt)]);

    const [failedHead, ...waiting] = await queueRows(head.ordering_key);
    expect(failedHead).toMatchObject({ id: head.id, status: 'pending', next_attempt_at: retryAt });
    expect(waiting.map((row) => row.next_attempt_at)).toEqual([retryAt, retryAt]);

    await record([delivered(head)]);
    const [deliveredHead, ...woken] = await queueRows(head.ordering_key);
    expect(deliveredHead.status).toBe('delivered');
    for (const row of woken) expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    // The next row of the queue is its head now, and a claim takes it.
    const next = await claim(QUEUES);
    expect(next.map((row) => row.id)).toContain(woken[0].id);
  });

  it('that arrive while a failed head waits wait with it, and are due at once when it is delivered', async () => {
    const [head] = await claim(1);
    const retryAt = new Date(Date.now() + 60 * 60_000);
    await record([failed(head, retryAt)]);
    const otherQueue = head.ordering_key === 'command:1' ? 'command:2' : 'command:1';
    await fanOut([head.ordering_key, otherQueue]);

    const arrived = (await queueRows(head.ordering_key)).at(-1)!;
    expect(arrived.next_attempt_at).toEqual(retryAt);
    // A queue whose head has not failed is due at once.
    expect((await queueRows(otherQueue)).at(-1)!.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());

    await record([delivered(head)]);
    const woken = (await queueRows(head.ordering_key)).at(-1)!;
    expect(woken.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('are not moved by a delivered head when they are due anyway', async () => {
    const [head] = await claim(1);
    const before = await queueRows(head.ordering_key);
    await record([delivered(head)]);
    const after = await queueRows(head.ordering_key);
    expect(after.slice(1)).toEqual(before.slice(1));
  });

  it('are not parked by a late failure of a head another attempt delivered meanwhile', async () => {
    const [head] = await claim(1);
    await record([delivered(head)]);
    const before = await queueRows(head.ordering_key);
    await record([failed(head, new Date(Date.now() + 60 * 60_000))]);
    expect(await queueRows(head.ordering_key)).toEqual(before);
  });

  it('are never moved earlier by a failure whose next attempt comes sooner than theirs', async () => {
    const [head] = await claim(1);
    const later = new Date(Date.now() + 60 * 60_000);
    await record([failed(head, later)]);
    const sooner = new Date(Date.now() + 60_000);
    await record([failed(head, sooner)]);
    const [, ...waiting] = await queueRows(head.ordering_key);
    expect(waiting.map((row) => row.next_attempt_at)).toEqual([later, later]);
  });

  it("cost a claim nothing once every head failed: it reads the heads' rows, not the backlog behind them", async () => {
    const heads = await claim(QUEUES);
    expect(heads).toHaveLength(QUEUES);
    const retryAt = new Date(Date.now() + 60_000);
    await record(heads.map((head) => failed(head, retryAt)));
    // The receiver is still down while events go on: one more for every queue.
    await fanOut(heads.map((head) => head.ordering_key));
    await dataSource.query('ANALYZE webhooks.deliveries');

    for (const planCacheMode of ['force_generic_plan', 'force_custom_plan'] as const) {
      const { read, returned } = await measureStatementPlan(
        dataSource,
        claimQuery(20),
        'deliveries',
        planCacheMode,
      );
      expect(returned).toBe(0);
      // Before, the claim walked the 6,000 due rows behind the failed heads and probed each one's queue.
      expect(read).toBeLessThan(100);
    }
  });
});
