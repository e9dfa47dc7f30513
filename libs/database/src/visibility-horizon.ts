import type { DataSource, EntityManager } from 'typeorm';
import { runStatement, type SqlStatement, sqlStatement } from './sql-statement.js';

/**
 * The visibility horizon of a list read: a time before which every row of the table stamped at its insert
 * (clock_timestamp() or now()) is already readable by any snapshot taken after the horizon was read. A row not yet
 * readable was inserted by a statement still in flight, whose transaction started at or after the horizon, or was
 * stamped after the horizon was read.
 */
export interface VisibilityHorizon {
  /** UTC with microseconds, the form of a cursor's time key (cursorTimeSql), so rows compare with it as text. */
  at: string;
  /** An insert was in flight: rows stamped at or after `at` may exist that a page holds back. */
  held: boolean;
}

/**
 * The comment every statement inserting into `table` starts with, so the horizon finds it in pg_stat_activity (its
 * `query` is the statement's text from the statement's start on; only its first 1 kB are kept, so it leads). The
 * statement must be the last of its transaction, as an autocommit statement is: `query` shows the latest one.
 */
export function insertMarker(table: string): string {
  if (!/^[a-z_]+\.[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  return `/* inserts ${table} */`;
}

/**
 * The horizon of `table`, to be read by its own statement before the page's: an insert that stamped a row before this
 * statement's start and has not committed is seen here in flight, in a transaction started at or before its stamp.
 * Only the service's own connections count (their application_name: the only writers of its tables; as the same
 * role, their xact_start and query are visible), and of them only those running an insert marked by insertMarker, so
 * reads, updates and other services' transactions hold nothing back.
 */
export function visibilityHorizonStatement(
  table: string,
): SqlStatement<Record<never, never>, VisibilityHorizon> {
  return sqlStatement<Record<never, never>, VisibilityHorizon>({
    name: `visibility-horizon:${table}`,
    parameters: [],
    sql: `SELECT to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
                 h.at < statement_timestamp() AS held
            FROM (SELECT least(statement_timestamp(), min(xact_start)) AS at
                    FROM pg_stat_activity
                   WHERE datname = current_database() AND application_name = current_setting('application_name')
                     AND xact_start IS NOT NULL AND starts_with(query, '${insertMarker(table)}')
                     AND pid <> pg_backend_pid()) AS h`,
  });
}

export async function visibilityHorizon(
  runner: DataSource | EntityManager,
  statement: SqlStatement<Record<never, never>, VisibilityHorizon>,
): Promise<VisibilityHorizon> {
  const [horizon] = await runStatement(runner, statement, {});
  return horizon;
}
