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
 * The statistics of a platform that has run a while: webhooks.deliveries analysed (by autovacuum or
 * TableStatisticsKeeper) while every row in it had been delivered, then a receiver goes down and its subscription's
 * backlog builds up, too small to double the table. The planner believes no row is pending; the statements run per
 * event and per claim must still read the queues they touch, not the backlog.
 */

const DELIVERED_HISTORY = 40_000;
const QUEUES = 2_000;
const EVENTS_PER_QUEUE = 3;
const BACKLOG = QUEUES * EVENTS_PER_QUEUE;
const CLAIMED = 20;

let testDatabase: WebhooksTestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
const healthy = randomUUID();
const down = randomUUID();

beforeAll(async () => {
  testDatabase = await createWebhooksTestDatabase();
  ({ dataSource } = testDatabase);
  await insertCommandSubscriptions(dataSource, tenant, [healthy, down]);
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, status,
             attempts, delivered_at)
     SELECT gen_random_uuid(), $1, s.uuid, 'old-' || seq, 'command.status_changed', 'command:old-' || (seq / 3), seq,
            '{}', 'delivered', 1, now()
       FROM generate_series(1, ${DELIVERED_HISTORY / 2}) AS seq, unnest($2::uuid[]) AS s(uuid)`,
    [tenant, [healthy, down]],
  );
  await dataSource.query('ANALYZE webhooks.deliveries');
  // The receiver that is down: its queues wait for their retries; the healthy one has one queue due.
  const first = DELIVERED_HISTORY / 2 + 1;
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
     SELECT gen_random_uuid(), $1, $2, 'event-' || seq, 'command.status_changed', 'command:' || (seq % ${QUEUES}),
            seq, '{}', now() + interval '1 hour'
       FROM generate_series(${first}, ${first + BACKLOG - 1}) AS seq`,
    [tenant, down],
  );
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
     SELECT gen_random_uuid(), $1, $2, 'due-' || seq, 'command.status_changed', 'command:due-' || seq,
            ${first + BACKLOG} + seq, '{}', now() - interval '1 second'
       FROM generate_series(1, ${CLAIMED}) AS seq`,
    [tenant, healthy],
  );
});

afterAll(async () => {
  await testDatabase?.drop();
});

describe.each(['force_generic_plan', 'force_custom_plan'] as const)(
  'statistics taken while nothing was pending, then a backlog (%s)',
  (planCacheMode: PlanCacheMode) => {
    const measure = (statement: { text: string; values: unknown[] }) =>
      measureStatementPlan(dataSource, statement, 'deliveries', planCacheMode);

    it("an event's fan-out reads its own rows and its queues' earlier rows, not the backlog", async () => {
      const fanOut = fanOutEvents.query({
        events: JSON.stringify([
          {
            tenant_uuid: tenant,
            event_id: `event-new-${planCacheMode}`,
            event_type: 'command.status_changed',
            ordering_key: 'command:7',
            stream_seq: DELIVERED_HISTORY + BACKLOG + CLAIMED + 100,
            body: '{}',
            controller_uuid: null,
            location_uuid: null,
          },
        ]),
      });
      const { read, returned } = await measure(fanOut);
      expect(returned).toBe(1);
      // Its row per subscription and the three earlier rows of the down subscription's queue.
      expect(read).toBeLessThan(20);
    });

    it("a batch of outcomes of the down subscription reads its rows and their queues' later rows", async () => {
      const ids = await dataSource.query<{ id: string; attempts: number }[]>(
        `SELECT DISTINCT ON (ordering_key) id, attempts FROM webhooks.deliveries
          WHERE subscription_uuid = $1 AND status = 'pending' ORDER BY ordering_key, stream_seq LIMIT 100`,
        [down],
      );
      const outcome = recordOutcomes.query({
        outcomes: JSON.stringify(
          ids.map(({ id, attempts }) => ({
            id,
            attempts,
            delivered: false,
            status_code: null,
            error: 'connection refused',
            next_attempt_at: new Date(Date.now() + 7_200_000),
          })),
        ),
      });
      const { read } = await measure(outcome);
      // Each outcome's row and the two later rows of its queue, each read a few times: far below the 6,000 backlog.
      expect(read).toBeLessThan(100 * 20);
    });

    it("a claim reads the due rows' queues, not the backlog", async () => {
      const claim = claimDueDeliveries.query({
        limit: CLAIMED,
        leaseMs: 30_000,
        perSubscriptionLimit: CLAIMED,
        inFlightSubscriptions: [],
        inFlightCounts: [],
        commandAckFloor: DELIVERED_HISTORY + BACKLOG + CLAIMED * 2,
        chargePointAckFloor: 0,
        probeOnlyAfterMs: 10_000,
      });
      const { read, returned } = await measure(claim);
      expect(returned).toBe(CLAIMED);
      expect(read).toBeLessThan(BACKLOG / 4);
    });
  },
);
