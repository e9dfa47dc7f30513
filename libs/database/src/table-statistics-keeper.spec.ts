import { randomUUID } from 'node:crypto';
import { DataSource, type QueryRunner } from 'typeorm';
import { TableStatisticsKeeper } from './table-statistics-keeper.js';
import { TEST_SERVER_URL, testServerDataSource } from './testing/test-server.js';

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

  it('leaves a table its role does not own alone (PostgreSQL would skip it with a warning every time)', async () => {
    const role = `${schema}_reader`;
    await dataSource.query(`CREATE ROLE ${role} LOGIN`);
    await dataSource.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await dataSource.query(`GRANT SELECT ON ${table} TO ${role}`);
    const url = new URL(TEST_SERVER_URL);
    url.username = role;
    url.password = '';
    const asReader = new DataSource({ type: 'postgres', url: url.toString(), poolSize: 1 });
    await asReader.initialize();
    try {
      await grow(100_000); // doubled at least
      const readers = new TableStatisticsKeeper(asReader, {
        tables: [table],
        checkIntervalMs: 60_000,
        minPages: 16,
      });
      expect(await readers.keepUp()).toEqual([]);
      expect(await keeper.keepUp()).toEqual([table]);
    } finally {
      await asReader.destroy();
      await dataSource.query(`DROP OWNED BY ${role}`);
      await dataSource.query(`DROP ROLE ${role}`);
    }
  });
});
