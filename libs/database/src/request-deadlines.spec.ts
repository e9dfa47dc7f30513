import { randomUUID } from 'node:crypto';
import { RequestDeadlinePassedError } from '@cpc/errors';
import { runWithRequestId } from '@cpc/logging';
import type { DataSource } from 'typeorm';
import { namedQuery } from './pool-query.js';
import { testServerDataSource } from './testing/test-server.js';

/**
 * Real PostgreSQL, a pool of one connection held by the spec: a request that waits for it past its deadline (its
 * caller gave up) runs nothing once it gets it, and the connection goes on to the next; a request that has begun is
 * finished, so nothing it writes is left half-done.
 */
describe('statements of a request with a deadline', () => {
  const table = `request_deadlines_spec_${randomUUID().replaceAll('-', '')}`;
  const insert = (value: string) => ({
    name: `spec.insert:${table}`,
    text: `INSERT INTO ${table} (value) VALUES ($1) RETURNING value`,
    values: [value],
  });
  let dataSource: DataSource;

  const stored = async () =>
    (await dataSource.query<{ value: string }[]>(`SELECT value FROM ${table} ORDER BY value`)).map(
      (row) => row.value,
    );

  /** Holds the pool's one connection for `ms`, then gives it back (`released`). */
  async function holdConnection(ms: number): Promise<{ released: Promise<void> }> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    return { released: new Promise<void>((resolve) => setTimeout(resolve, ms)).then(() => runner.release()) };
  }

  beforeAll(async () => {
    dataSource = await testServerDataSource(1);
    await dataSource.query(`CREATE TABLE ${table} (value text PRIMARY KEY)`);
  });

  afterAll(async () => {
    await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
    await dataSource.destroy();
  });

  it('runs nothing for a request whose deadline passed while it waited for a connection', async () => {
    const { released } = await holdConnection(400);
    const waiting = runWithRequestId('late', () => namedQuery(dataSource, insert('late')), Date.now() + 100);
    await expect(waiting).rejects.toBeInstanceOf(RequestDeadlinePassedError);
    await released;
    expect(await stored()).not.toContain('late');
    // The connection was given back, not lost: the next statement gets it.
    expect(await namedQuery(dataSource, insert('next'))).toEqual([{ value: 'next' }]);
  });

  it('runs a request that gets its connection in time, and one without a deadline however long it waits', async () => {
    const { released } = await holdConnection(300);
    const [inTime, unbounded] = await Promise.all([
      runWithRequestId('in-time', () => namedQuery(dataSource, insert('in time')), Date.now() + 10_000),
      namedQuery(dataSource, insert('unbounded')),
    ]);
    await released;
    expect([inTime, unbounded]).toEqual([[{ value: 'in time' }], [{ value: 'unbounded' }]]);
  });

  it('finishes a request that has begun, however late its next statement comes', async () => {
    const finished = runWithRequestId(
      'begun',
      async () => {
        await namedQuery(dataSource, insert('first write'));
        await new Promise((resolve) => setTimeout(resolve, 150));
        return namedQuery(dataSource, insert('second write'));
      },
      Date.now() + 100,
    );
    await expect(finished).resolves.toEqual([{ value: 'second write' }]);
    expect(await stored()).toEqual(expect.arrayContaining(['first write', 'second write']));
  });

  it('does not even wait for a connection once the deadline has passed', async () => {
    const { released } = await holdConnection(300);
    const startedAt = Date.now();
    await expect(
      runWithRequestId('gone', () => namedQuery(dataSource, insert('gone')), Date.now() - 1),
    ).rejects.toBeInstanceOf(RequestDeadlinePassedError);
    expect(Date.now() - startedAt).toBeLessThan(300);
    await released;
    expect(await stored()).not.toContain('gone');
  });
});
