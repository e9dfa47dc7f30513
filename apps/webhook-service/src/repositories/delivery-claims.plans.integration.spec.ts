import { randomUUID } from 'node:crypto';
import { measureStatementPlan, type PlanCacheMode } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { claimDueDeliveries, fanOutEvents, recordOutcomes } from './deliveries.repository.js';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';

/**
 * The plans of the statements run per event and per attempt when the statistics are stale in the worst way:
 * webhooks.deliveries analysed while it was empty, then a backlog of one subscription (its queues of three events, all
 * due) and of a second one (not due yet). What is measured is the rows a statement reads from webhooks.deliveries,
 * which must stay proportional to the rows it claims or writes, not to the backlog: with the queue looked up by
 * (subscription, ordering key) the claim read every pending row of the subscription for each candidate, and the
 * outcomes, joined to their rows by a hash join, read the whole table. The same bounds hold under the coarse
 * statistics the table's small ANALYZE sample gives.
 */

const QUEUES = 2_000;
const EVENTS_PER_QUEUE = 3;
const BACKLOG = QUEUES * EVENTS_PER_QUEUE;
/** Far above what the probes of a claim of CLAIMED rows read, far below one pass over the backlog per candidate. */
const READ_LIMIT = BACKLOG / 4;
const CLAIMED = 20;
/** Outcomes in one statement, as DeliveryOutcomes writes them when attempts end together. */
const OUTCOMES = 200;

let testDatabase: WebhooksTestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
const healthy = randomUUID();
const slow = randomUUID();

beforeAll(async () => {
  testDatabase = await createWebhooksTestDatabase();
  ({ dataSource } = testDatabase);
  await dataSource.query('ANALYZE webhooks.deliveries');
  await insertCommandSubscriptions(dataSource, tenant, [healthy, slow]);
  // Stream places 1…BACKLOG, the events of a queue spread over the stream as a command's are.
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
     SELECT gen_random_uuid(), $1, s.uuid, 'event-' || seq, 'command.status_changed',
            'command:' || (seq % ${QUEUES}), seq, '{}',
            CASE WHEN s.uuid = $2 THEN now() - interval '1 second' ELSE now() + interval '1 hour' END
       FROM generate_series(1, ${BACKLOG}) AS seq, unnest($3::uuid[]) AS s(uuid)`,
    [tenant, healthy, [healthy, slow]],
  );
});

afterAll(async () => {
  await testDatabase?.drop();
});

const measure = (statement: { text: string; values: unknown[] }, planCacheMode: PlanCacheMode) =>
  measureStatementPlan(dataSource, statement, 'deliveries', planCacheMode);

/**
 * Each statement under the statistics taken while the table was empty, then under those ANALYZE takes of the backlog
 * from its small sample (SmallStatisticsSampleForDeliveries1796600000000), as TableStatisticsKeeper would.
 */
describe.each([
  ['taken while the table was empty', 'force_generic_plan'],
  ['taken while the table was empty', 'force_custom_plan'],
  ["ANALYZE's sample of the backlog", 'force_generic_plan'],
  ["ANALYZE's sample of the backlog", 'force_custom_plan'],
] as const)('delivery claims over a backlog, statistics %s (%s)', (statistics, planCacheMode) => {
  beforeAll(async () => {
    if (statistics === "ANALYZE's sample of the backlog")
      await dataSource.query('ANALYZE webhooks.deliveries');
  });
  it("a claim reads its candidates' queues, not the subscription's backlog", async () => {
    const claim = claimDueDeliveries.query({
      limit: CLAIMED,
      leaseMs: 30_000,
      perSubscriptionLimit: CLAIMED,
      inFlightSubscriptions: [],
      inFlightCounts: [],
      commandAckFloor: BACKLOG,
      chargePointAckFloor: 0,
      probeOnlyAfterMs: 10_000,
    });
    const { read, returned } = await measure(claim, planCacheMode);
    expect(returned).toBe(CLAIMED);
    expect(read).toBeLessThan(READ_LIMIT);
  });

  it("an attempt's outcome reads the rows it records", async () => {
    const [{ id, attempts }] = await dataSource.query<{ id: string; attempts: number }[]>(
      `SELECT id, attempts FROM webhooks.deliveries WHERE subscription_uuid = $1 AND ordering_key = 'command:9' LIMIT 1`,
      [healthy],
    );
    const outcome = recordOutcomes.query({
      outcomes: JSON.stringify([
        { id, attempts, delivered: true, status_code: 204, error: null, next_attempt_at: null },
      ]),
    });
    const { read } = await measure(outcome, planCacheMode);
    expect(read).toBeLessThan(10);
  });

  it("a batch of outcomes reads its rows and their queues' later rows, not the backlog", async () => {
    const ids = await dataSource.query<{ id: string; attempts: number }[]>(
      `SELECT DISTINCT ON (ordering_key) id, attempts FROM webhooks.deliveries
        WHERE subscription_uuid = $1 ORDER BY ordering_key, stream_seq LIMIT ${OUTCOMES}`,
      [healthy],
    );
    const outcome = recordOutcomes.query({
      outcomes: JSON.stringify(
        ids.map(({ id, attempts }, index) =>
          index % 2 === 0
            ? { id, attempts, delivered: true, status_code: 204, error: null, next_attempt_at: null }
            : {
                id,
                attempts,
                delivered: false,
                status_code: 500,
                error: 'HTTP 500',
                next_attempt_at: new Date(Date.now() + 60_000),
              },
        ),
      ),
    });
    const { read } = await measure(outcome, planCacheMode);
    // Each outcome's row and the two later rows of its queue, and probes: far below the 12,000-row backlog.
    expect(read).toBeLessThan(OUTCOMES * 10);
  });

  it("an event's fan-out reads its own rows and its queues' earlier rows, not the backlog", async () => {
    const fanOut = fanOutEvents.query({
      events: JSON.stringify([
        {
          tenant_uuid: tenant,
          event_id: 'event-new',
          event_type: 'command.status_changed',
          ordering_key: 'command:7',
          stream_seq: BACKLOG + 1,
          body: '{}',
          controller_uuid: null,
          location_uuid: null,
        },
      ]),
    });
    const { read, returned } = await measure(fanOut, planCacheMode);
    expect(returned).toBe(1);
    // Its row per subscription and the three earlier rows of each of the two queues it joins.
    expect(read).toBeLessThan(20);
  });
});
