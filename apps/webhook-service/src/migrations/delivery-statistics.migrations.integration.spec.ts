import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import {
  createWebhooksTestDatabase,
  insertCommandSubscriptions,
  type WebhooksTestDatabase,
} from '../testing/webhooks-test-database.js';
import { NoStatisticsForBodies1796500000000 } from './1796500000000-no-statistics-for-bodies.js';
import {
  SAMPLED_DELIVERY_COLUMNS,
  SmallStatisticsSampleForDeliveries1796600000000,
} from './1796600000000-small-statistics-sample-for-deliveries.js';
import { QueueIndexApartFromDueIndex1796700000000 } from './1796700000000-queue-index-apart-from-due-index.js';

let testDatabase: WebhooksTestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  testDatabase = await createWebhooksTestDatabase();
  ({ dataSource } = testDatabase);
});

afterAll(async () => {
  await testDatabase?.drop();
});

/**
 * The statistics targets (-1: the server's default) of webhooks.deliveries' columns, by column, and of the expressions
 * its indexes index (ANALYZE takes statistics of those too), by index and column.
 */
async function statisticsTargets(): Promise<Record<string, number>> {
  const rows = await dataSource.query<{ name: string; target: number }[]>(
    `SELECT attname AS name, attstattarget::int AS target FROM pg_attribute
      WHERE attrelid = 'webhooks.deliveries'::regclass AND attnum > 0 AND NOT attisdropped
     UNION ALL
     SELECT i.indexrelid::regclass || '.' || a.attname, a.attstattarget::int
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indexrelid
      WHERE i.indrelid = 'webhooks.deliveries'::regclass AND i.indkey[a.attnum - 1] = 0`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.target]));
}

const QUEUE_KEY = 'webhooks.deliveries_queue_idx.expr';
/** The queues' index before QueueIndexApartFromDueIndex1796700000000. */
const PENDING_QUEUE_KEY = 'webhooks.deliveries_pending_queue_idx.expr';

const sampled = (target: number) =>
  Object.fromEntries(SAMPLED_DELIVERY_COLUMNS.map((column) => [column, target]));

async function undoAndRedo(migration: {
  up(runner: unknown): Promise<void>;
  down(runner: unknown): Promise<void>;
}) {
  const runner = dataSource.createQueryRunner();
  try {
    await migration.down(runner);
    const undone = await statisticsTargets();
    await migration.up(runner);
    return undone;
  } finally {
    await runner.release();
  }
}

describe('the statistics of webhooks.deliveries', () => {
  it('has a target chosen for every column and indexed expression: none for the bodies and errors, ten for the rest', async () => {
    expect(await statisticsTargets()).toEqual({ ...sampled(10), [QUEUE_KEY]: 10, body: 0, last_error: 0 });
  });

  it('are taken from a sample of 3,000 rows (ANALYZE VERBOSE says so)', async () => {
    const subscription = randomUUID();
    await insertCommandSubscriptions(dataSource, subscription, [subscription]);
    await dataSource.query(
      `INSERT INTO webhooks.deliveries
              (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body, next_attempt_at)
       SELECT gen_random_uuid(), $1, $1, 'event-' || seq, 'command.status_changed', 'command:' || seq, seq, '{}', now()
         FROM generate_series(1, 5000) AS seq`,
      [subscription],
    );
    const client = new pg.Client({ connectionString: testDatabase.database.url });
    const notices: string[] = [];
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
    await client.connect();
    try {
      await client.query('ANALYZE VERBOSE webhooks.deliveries');
    } finally {
      await client.end();
    }
    expect(notices.join('\n')).toMatch(/containing 5000 live rows .*; 3000 rows in sample/);
  });

  it('NoStatisticsForBodies1796500000000 gives the bodies and errors the default target when undone', async () => {
    const undone = await undoAndRedo(new NoStatisticsForBodies1796500000000());
    expect(undone).toMatchObject({ body: -1, last_error: -1 });
    expect(await statisticsTargets()).toMatchObject({ body: 0, last_error: 0 });
  });

  it('SmallStatisticsSampleForDeliveries1796600000000 gives the other columns the default when undone', async () => {
    // Undone in order: the migration after it first, which gives the queues' index its earlier name back.
    const runner = dataSource.createQueryRunner();
    const queueIndexApart = new QueueIndexApartFromDueIndex1796700000000();
    try {
      await queueIndexApart.down(runner);
      const undone = await undoAndRedo(new SmallStatisticsSampleForDeliveries1796600000000());
      expect(undone).toEqual({ ...sampled(-1), [PENDING_QUEUE_KEY]: -1, body: 0, last_error: 0 });
      expect(await statisticsTargets()).toEqual({
        ...sampled(10),
        [PENDING_QUEUE_KEY]: 10,
        body: 0,
        last_error: 0,
      });
    } finally {
      await queueIndexApart.up(runner);
      await runner.release();
    }
    expect(await statisticsTargets()).toEqual({ ...sampled(10), [QUEUE_KEY]: 10, body: 0, last_error: 0 });
  });
});
