import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { RequestDeadlinePassedError } from '@cpc/errors';
import { currentRequestDeadline, noteRequestWorkStarted, requestAbandoned } from '@cpc/logging';

/** A statement for the pool or a transaction's connection; see poolQuery for what a `name` implies. */
export interface PlainQuery {
  text: string;
  values: unknown[];
  name?: string;
}

/**
 * Runs one statement of a hot read path straight on the DataSource's pool, skipping TypeORM's query runner (the
 * largest cost of a read in the CPU profiles); as the first statement of a request whose caller has stopped waiting
 * (REQUEST_TIMEOUT_HEADER), not at all: RequestDeadlinePassedError. With a `name`, PostgreSQL parses and plans the
 * statement once per connection: only for statements whose best plan does not depend on the values (a generic plan
 * is chosen after five runs), and a name must always stand for the same text. Values are hydrated as `pg` hands them
 * over (numeric as strings, timestamptz as Date, json parsed).
 */
export async function poolQuery<TRow extends QueryResultRow>(
  dataSource: DataSource,
  query: PlainQuery,
): Promise<TRow[]> {
  const pool = poolOf(dataSource);
  if (currentRequestDeadline() === undefined) return (await pool.query<TRow>(query)).rows;
  if (requestAbandoned()) throw new RequestDeadlinePassedError();
  // A request waits here for a connection while the pool is busy: once its caller has stopped waiting, the connection
  // goes to the next one instead (pool.query would run it regardless). Only before its first statement: one that
  // has begun is finished, whatever it still writes.
  const { client, release } = await checkOut(pool);
  if (requestAbandoned()) {
    release();
    throw new RequestDeadlinePassedError();
  }
  noteRequestWorkStarted();
  let failure: Error | undefined;
  try {
    return (await client.query<TRow>(query)).rows;
  } catch (error) {
    // As pool.query does: a client whose query failed is not given out again.
    failure = error as Error;
    throw error;
  } finally {
    release(failure);
  }
}

/** The DataSource's `pg` pool, for statements that skip TypeORM's query runner. */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/**
 * A client of the pool, listened to for `error` while it is out: the pool listens only to its idle clients, and a
 * connection the server ends (PostgreSQL stopping, a terminated backend) emits one, which with no listener took the
 * whole process down. Such a client is not given back for reuse.
 */
export async function checkOut(
  pool: Pool,
): Promise<{ client: PoolClient; release: (failure?: Error) => void }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  client.on('error', onError);
  return {
    client,
    release: (failure) => {
      client.removeListener('error', onError);
      client.release(failure ?? broken);
    },
  };
}

/**
 * Runs a named statement (see poolQuery) of a hot write path in the caller's transaction when `runner` is a
 * transaction's EntityManager, else on the pool. Planning the delivery path's statements anew on every run was about
 * a third of PostgreSQL's time per command (pg_stat_statements: 0.3 ms to plan a creation, 1.3 ms a claim).
 * Returns the rows, RETURNING's included.
 */
export function namedQuery<TRow>(
  runner: DataSource | EntityManager,
  query: PlainQuery & { name: string },
): Promise<TRow[]> {
  return runQuery(runner, query);
}

/** Runs a statement, named (see namedQuery) or not, in the caller's transaction or on the pool. */
export async function runQuery<TRow>(runner: DataSource | EntityManager, query: PlainQuery): Promise<TRow[]> {
  if ('driver' in runner) return (await poolQuery(runner, query)) as TRow[];
  if (!runner.queryRunner) return (await poolQuery(runner.connection, query)) as TRow[];
  // In a transaction a request has begun its work: its later statements on the pool are not refused either.
  noteRequestWorkStarted();
  const client = (await runner.queryRunner.connect()) as PoolClient;
  const result = await client.query(query);
  return result.rows as TRow[];
}
