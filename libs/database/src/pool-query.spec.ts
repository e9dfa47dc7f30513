import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { namedQuery } from './pool-query.js';
import { testServerDataSource } from './testing/test-server.js';

/** Real PostgreSQL: a table of its own in the maintenance database, dropped afterwards. */
describe('namedQuery', () => {
  const table = `named_query_spec_${randomUUID().replaceAll('-', '')}`;
  const insert = (value: string) => ({
    name: `spec.insert:${table}`,
    text: `INSERT INTO ${table} (value) VALUES ($1) RETURNING value`,
    values: [value],
  });
  const values = async (dataSource: DataSource) =>
    (
      await namedQuery<{ value: string }>(dataSource, {
        name: `spec.select:${table}`,
        text: `SELECT value FROM ${table} ORDER BY value`,
        values: [],
      })
    ).map((row) => row.value);
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await testServerDataSource(2);
    await dataSource.query(`CREATE TABLE ${table} (value text PRIMARY KEY)`);
  });

  afterAll(async () => {
    await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
    await dataSource.destroy();
  });

  it('runs on the pool, the same name again and again, and returns RETURNING rows', async () => {
    for (const value of ['a', 'b', 'c']) {
      expect(await namedQuery(dataSource, insert(value))).toEqual([{ value }]);
    }
    expect(await values(dataSource)).toEqual(['a', 'b', 'c']);
  });

  it("runs in the caller's transaction: rolled back with it, and seen by it before commit", async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await namedQuery(manager, insert('rolled back'));
        const seen = await manager.query<{ value: string }[]>(`SELECT value FROM ${table} WHERE value = $1`, [
          'rolled back',
        ]);
        expect(seen).toHaveLength(1);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await values(dataSource)).not.toContain('rolled back');
  });

  it('runs on the pool with an EntityManager outside a transaction', async () => {
    await namedQuery(dataSource.manager, insert('d'));
    expect(await values(dataSource)).toContain('d');
  });
});
