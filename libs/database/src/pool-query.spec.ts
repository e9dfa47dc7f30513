import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { checkOut, namedQuery } from './pool-query.js';
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

describe('checkOut', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await testServerDataSource(2);
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  // Without a listener, the error a connection ended by the server emits while it is out of the pool is thrown from
  // the socket's handler: an uncaught exception, which ends a service (and fails this test).
  it('keeps a client the server ends while it is out from crashing the process, and does not reuse it', async () => {
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const { client, release } = await checkOut(pool);
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const ended = new Promise((resolve) => client.once('end', resolve));
    await dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await ended;
    release();
    const next = await checkOut(pool);
    const [again] = (await next.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    next.release();
    expect(again.pid).not.toBe(pid);
  });
});
