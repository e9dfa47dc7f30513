import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs one statement of a hot read path straight on the DataSource's pool, skipping TypeORM's query runner (the
 * largest cost of a read in the CPU profiles). With a `name`, PostgreSQL parses and plans the statement once per
 * connection: only for statements whose best plan does not depend on the values (a generic plan is chosen after five
 * runs), and a name must always stand for the same text. Values are hydrated as `pg` hands them over (numeric as
 * strings, timestamptz as Date, json parsed).
 */
export async function poolQuery<TRow extends QueryResultRow>(
  dataSource: DataSource,
  query: { text: string; values: unknown[]; name?: string },
): Promise<TRow[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query<TRow>(query);
  return result.rows;
}
