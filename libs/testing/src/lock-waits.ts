import type { DataSource, QueryRunner } from 'typeorm';

/**
 * For specs that force one interleaving of two transactions: a second session holds a lock, the code under test runs
 * into it, and the spec lets go once it sees the waiter, never after a fixed sleep.
 */

/** A second session with an open transaction, to hold locks while the code under test runs into them. */
export async function openSession(dataSource: DataSource): Promise<QueryRunner> {
  const session = dataSource.createQueryRunner();
  await session.connect();
  await session.startTransaction();
  return session;
}

/**
 * Resolves once `count` backends of the data source's database wait for a lock (polled); with `queryPrefix`, only
 * backends whose statement starts with it count (background work of the service under test may wait too).
 */
export async function lockWaiters(
  dataSource: DataSource,
  count: number,
  queryPrefix?: string,
): Promise<void> {
  for (;;) {
    const [{ waiting }] = await dataSource.query<{ waiting: number }[]>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND ($1::text IS NULL OR starts_with(query, $1::text))`,
      [queryPrefix ?? null],
    );
    if (waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Settles a promise into its value or its error, so a spec can look at either. */
export async function outcome<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}
