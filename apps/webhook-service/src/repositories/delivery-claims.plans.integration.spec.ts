import { randomUUID } from 'node:crypto';
import { migrateServiceSchema } from '@cpc/database';
import {
  createTestDatabase,
  measureStatementPlan,
  type PlanCacheMode,
  type TestDatabase,
} from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';
import { claimDueDeliveries, claimNextInQueue } from './deliveries.repository.js';

/**
 * The claims' plans when the statistics are stale in the worst way: webhooks.deliveries analysed while it was empty,
 * then a backlog of one subscription (its queues of three events, all due) and of a second one (not due yet). What
 * is measured is the rows a claim reads from webhooks.deliveries, which must stay proportional to the rows it claims,
 * not to the subscription's backlog: with the queue looked up by (subscription, ordering key) the planner read every
 * pending row of the subscription for each candidate.
 */

const QUEUES = 2_000;
const EVENTS_PER_QUEUE = 3;
const BACKLOG = QUEUES * EVENTS_PER_QUEUE;
/** Far above what the probes of a claim of CLAIMED rows read, far below one pass over the backlog per candidate. */
const READ_LIMIT = BACKLOG / 4;
const CLAIMED = 20;

let database: TestDatabase;
let dataSource: DataSource;
const healthy = randomUUID();
const slow = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createWebhooksDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  await dataSource.query('ANALYZE webhooks.deliveries');
  const tenant = randomUUID();
  await dataSource.query(
    `INSERT INTO webhooks.subscriptions (uuid, tenant_uuid, url, event_types, secret_ciphertext)
     SELECT uuid, $1, 'https://receiver.example/hook', ARRAY['command.status_changed'], 'sealed'
       FROM unnest($2::uuid[]) AS uuid`,
    [tenant, [healthy, slow]],
  );
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
  await dataSource?.destroy();
  await database?.drop();
});

const measure = (statement: { text: string; values: unknown[] }, planCacheMode: PlanCacheMode) =>
  measureStatementPlan(dataSource, statement, 'deliveries', planCacheMode);

describe.each(['force_generic_plan', 'force_custom_plan'] as const)(
  'delivery claims over a backlog the statistics do not know (%s)',
  (planCacheMode) => {
    it("a claim reads its candidates' queues, not the subscription's backlog", async () => {
      const claim = claimDueDeliveries.query({
        limit: CLAIMED,
        leaseMs: 30_000,
        perSubscriptionLimit: CLAIMED,
        inFlightSubscriptions: [],
        inFlightCounts: [],
        commandAckFloor: BACKLOG,
        chargePointAckFloor: 0,
      });
      const { read, returned } = await measure(claim, planCacheMode);
      expect(returned).toBe(CLAIMED);
      expect(read).toBeLessThan(READ_LIMIT);
    });

    it('the claim of the next row of a queue reads that queue', async () => {
      const next = claimNextInQueue.query({
        subscriptionUuid: healthy,
        orderingKey: 'command:7',
        leaseMs: 30_000,
        commandAckFloor: BACKLOG,
        chargePointAckFloor: 0,
      });
      const { read, returned } = await measure(next, planCacheMode);
      expect(returned).toBe(1);
      expect(read).toBeLessThan(READ_LIMIT / 10);
    });
  },
);
