import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { TableStatisticsKeeper } from './table-statistics-keeper.js';
import { testServerDataSource } from './testing/test-server.js';

/**
 * A generic plan made while a table was a few pages, kept by PostgreSQL until the table is analysed, and what the
 * keeper does about it: an ANALYZE once the table has doubled since its statistics were taken, and none before.
 */

const schema = `statistics_${randomUUID().replace(/-/g, '')}`;
const table = `${schema}.items`;
let dataSource: DataSource;
let session: QueryRunner;
let keeper: TableStatisticsKeeper;

beforeAll(async () => {
  dataSource = await testServerDataSource(2);
  await dataSource.query(`CREATE SCHEMA ${schema}`);
  await dataSource.query(`CREATE TABLE ${table} (id uuid PRIMARY KEY, filler text NOT NULL)`);
  keeper = new TableStatisticsKeeper(dataSource, { tables: [table], checkIntervalMs: 60_000, minPages: 16 });
  session = dataSource.createQueryRunner();
  await session.connect();
  await session.query('SET plan_cache_mode = force_generic_plan');
  await session.query(`PREPARE lookup(uuid[]) AS SELECT id FROM ${table} WHERE id = ANY ($1)`);
});

afterAll(async () => {
  await session?.release();
  await dataSource?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await dataSource?.destroy();
});

/** Adds `rows` rows of about 200 bytes. */
async function grow(rows: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO ${table} SELECT gen_random_uuid(), repeat('x', 200) FROM generate_series(1, $1)`,
    [rows],
  );
}

/** How the kept plan of the prepared lookup reads the table. */
async function lookupPlan(): Promise<string> {
  const rows = (await session.query(
    `EXPLAIN EXECUTE lookup(ARRAY[gen_random_uuid(), gen_random_uuid()])`,
  )) as {
    'QUERY PLAN': string;
  }[];
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe('TableStatisticsKeeper', () => {
  it('analyses a table once it has doubled since its statistics were taken, so kept plans are made again', async () => {
    await grow(20);
    expect(await keeper.keepUp()).toEqual([]); // under minPages
    // Statistics of a table of one page, as autovacuum takes them soon after a deploy: the plan reads it whole.
    await dataSource.query(`ANALYZE ${table}`);
    expect(await lookupPlan()).toMatch(/Seq Scan on items/);

    await grow(20_000);
    // The plan made for a table of a page is kept for one of hundreds.
    expect(await lookupPlan()).toMatch(/Seq Scan on items/);

    expect(await keeper.keepUp()).toEqual([table]);
    expect(await lookupPlan()).toMatch(/Index Scan on items_pkey/);
    // Not again until the table has doubled once more.
    expect(await keeper.keepUp()).toEqual([]);
    await grow(5_000);
    expect(await keeper.keepUp()).toEqual([]);
    await grow(20_000);
    expect(await keeper.keepUp()).toEqual([table]);
  });
});
