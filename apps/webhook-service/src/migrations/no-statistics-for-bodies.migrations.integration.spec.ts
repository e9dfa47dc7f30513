import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../data-source.js';
import { NoStatisticsForBodies1796500000000 } from './1796500000000-no-statistics-for-bodies.js';

let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createWebhooksDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** The statistics targets of webhooks.deliveries' columns that differ from the default (-1), by column. */
async function statisticsTargets(): Promise<Record<string, number>> {
  const rows = await dataSource.query<{ attname: string; target: number }[]>(
    `SELECT attname, attstattarget::int AS target FROM pg_attribute
      WHERE attrelid = 'webhooks.deliveries'::regclass AND attnum > 0 AND attstattarget <> -1`,
  );
  return Object.fromEntries(rows.map((row) => [row.attname, row.target]));
}

describe('NoStatisticsForBodies1796500000000', () => {
  it('takes no statistics of the bodies and errors, and gives them back when undone', async () => {
    expect(await statisticsTargets()).toEqual({ body: 0, last_error: 0 });
    const runner = dataSource.createQueryRunner();
    try {
      await new NoStatisticsForBodies1796500000000().down(runner);
      expect(await statisticsTargets()).toEqual({});
      await new NoStatisticsForBodies1796500000000().up(runner);
      expect(await statisticsTargets()).toEqual({ body: 0, last_error: 0 });
    } finally {
      await runner.release();
    }
  });
});
