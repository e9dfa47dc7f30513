import { randomUUID } from 'node:crypto';
import { runQuery } from '@cpc/database';
import type { DataSource, EntityManager } from 'typeorm';
import { LeaseDeliveriesApart1796400000000 } from '../migrations/1796400000000-lease-deliveries-apart.js';
import { claimDueDeliveries, releaseClaims } from './deliveries.repository.js';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';

/**
 * A claim's lease lives in `leased_until`, which no index holds: the claim rewrites its rows in place (heap-only
 * tuples, no new index entries), a claimed row stays hidden for the lease, and a row given back is due at once.
 */

const ROWS = 40;

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
  // One row per queue, each its queue's head, as large as a command's status event.
  await dataSource.query(
    `INSERT INTO webhooks.deliveries
            (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
     SELECT gen_random_uuid(), $1, $2, 'event-' || n, 'command.status_changed', 'command:' || n, n,
            repeat('x', 700), now() - interval '1 second'
       FROM generate_series(1, ${ROWS}) AS n`,
    [tenant, subscription],
  );
});

afterAll(async () => {
  await testDatabase?.drop();
});

function claim(manager: EntityManager | DataSource, leaseMs = 60_000) {
  const query = claimDueDeliveries.query({
    limit: ROWS,
    leaseMs,
    perSubscriptionLimit: ROWS,
    inFlightSubscriptions: [],
    inFlightCounts: [],
    commandAckFloor: ROWS,
    chargePointAckFloor: 0,
    probeOnlyAfterMs: 10_000,
  });
  return runQuery<{ id: string; attempts: number }>(manager, query);
}

describe('the lease of a claimed delivery', () => {
  it('is written in place: the claim adds no index entry for its rows', async () => {
    await dataSource.transaction(async (manager) => {
      const claimed = await claim(manager);
      const [{ updated, inPlace }] = await manager.query<{ updated: number; inPlace: number }[]>(
        `SELECT pg_stat_get_xact_tuples_updated('webhooks.deliveries'::regclass)::int AS updated,
                pg_stat_get_xact_tuples_hot_updated('webhooks.deliveries'::regclass)::int AS "inPlace"`,
      );
      expect(claimed).toHaveLength(ROWS);
      expect({ updated, inPlace }).toEqual({ updated: ROWS, inPlace: ROWS });
    });
  });

  it('hides a claimed row until the lease ends, and a row given back is due at once', async () => {
    const claimed = await claim(dataSource);
    expect(claimed).toHaveLength(ROWS);
    expect(await claim(dataSource)).toHaveLength(0);

    const given = claimed.slice(0, 5);
    await runQuery(
      dataSource,
      releaseClaims.query({
        ids: given.map(({ id }) => id),
        attempts: given.map(({ attempts }) => attempts),
      }),
    );
    const again = await claim(dataSource, 1);
    expect(again.map(({ id }) => id).sort()).toEqual(
      claimed
        .slice(0, 5)
        .map(({ id }) => id)
        .sort(),
    );
    // The attempt the first claim counted was taken back: this is the first again.
    expect(again.map(({ attempts }) => attempts)).toEqual([1, 1, 1, 1, 1]);

    await new Promise((resolve) => setTimeout(resolve, 20));
    const afterLease = await claim(dataSource);
    expect(afterLease.map(({ id }) => id).sort()).toEqual(again.map(({ id }) => id).sort());
    expect(afterLease.map(({ attempts }) => attempts)).toEqual([2, 2, 2, 2, 2]);
  });
});

describe('LeaseDeliveriesApart1796400000000', () => {
  it('moves a running lease back into next_attempt_at when undone, and out of the way when redone', async () => {
    await claim(dataSource);
    const migration = new LeaseDeliveriesApart1796400000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const [undone] = await dataSource.query<{ leased: number; seqUnique: number }[]>(
        `SELECT count(*) FILTER (WHERE next_attempt_at > now() + interval '30 seconds')::int AS leased,
                (SELECT count(*)::int FROM pg_constraint WHERE conname = 'deliveries_seq_key') AS "seqUnique"
           FROM webhooks.deliveries`,
      );
      expect(undone).toEqual({ leased: ROWS, seqUnique: 1 });
      await migration.up(runner);
      const [redone] = await dataSource.query<{ fillfactor: string[]; seqUnique: number }[]>(
        `SELECT reloptions AS fillfactor,
                (SELECT count(*)::int FROM pg_constraint WHERE conname = 'deliveries_seq_key') AS "seqUnique"
           FROM pg_class WHERE oid = 'webhooks.deliveries'::regclass`,
      );
      expect(redone).toEqual({ fillfactor: ['fillfactor=50'], seqUnique: 0 });
      // Rows claimed under the old scheme are not due before their lease (then in next_attempt_at) ends.
      expect(await claim(dataSource)).toHaveLength(0);
    } finally {
      await runner.release();
    }
  });
});
