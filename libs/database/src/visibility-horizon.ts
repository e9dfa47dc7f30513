import type { DataSource, EntityManager } from 'typeorm';
import { runStatement, type SqlStatement, sqlStatement } from './sql-statement.js';

/**
 * The visibility horizon of a list read: a time before which every row of the table stamped at its insert, once the
 * insert shows as marked (clock_timestamp() of a marked statement, statement_timestamp() of a statement after its
 * transaction's mark), is already readable by any snapshot taken after the horizon was read. A row not yet readable
 * was inserted by a statement still in flight, whose transaction started at or after the horizon, or was stamped
 * after the horizon was read.
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
  return `/* ${insertsTable(table)} */`;
}

/** What marks an insert into `table`; the name is checked, as it goes into SQL text. */
function insertsTable(table: string): string {
  if (!/^[a-z_]+\.[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  return `inserts ${table}`;
}

/**
 * How the inserts into a table are found in flight: `statement`, each starts with insertMarker(table) and is the last
 * statement of its transaction (an autocommit statement: inside a transaction block the COMMIT that follows it is
 * shown instead, while the row is still unreadable); `transaction`, each runs in a transaction marked by
 * insertingTransactionMark(table) before it, whatever follows it there.
 */
export type InsertMarking = 'statement' | 'transaction';

/**
 * The application_name of a transaction marked as inserting into `table`: the connection's own with the marker after
 * it, cut where pg_stat_activity cuts it (63 bytes; PostgreSQL keeps application_name ASCII).
 */
function markedApplicationNameSql(table: string): string {
  return `left(current_setting('application_name') || ' ${insertsTable(table)}', 63)`;
}

/**
 * Marks the transaction it runs in as inserting into `table` until it ends: SET LOCAL application_name, which
 * pg_stat_activity shows from this statement on, through the COMMIT, until after the transaction's rows are readable
 * (PostgreSQL resets it after ending the transaction in the proc array). Rows of the table must be stamped after it,
 * by a later statement (statement_timestamp() or clock_timestamp() of the insert). A transaction marks one table;
 * marking it again for that table leaves the mark as it is (appended twice, the horizon would no longer find it).
 */
export function insertingTransactionMark(
  table: string,
): SqlStatement<Record<never, never>, { marked: string }> {
  const marker = ` ${insertsTable(table)}`;
  return sqlStatement<Record<never, never>, { marked: string }>({
    name: `visibility-horizon:mark:${table}`,
    parameters: [],
    sql: `SELECT set_config('application_name',
                            CASE WHEN right(current_setting('application_name'), ${marker.length}) = '${marker}'
                                 THEN current_setting('application_name')
                                 ELSE ${markedApplicationNameSql(table)} END,
                            true) AS marked`,
  });
}

/** Runs `mark` (insertingTransactionMark) in the transaction of `manager`; outside one it would mark nothing. */
export async function markInsertingTransaction(
  manager: EntityManager,
  mark: SqlStatement<Record<never, never>, { marked: string }>,
): Promise<void> {
  if (manager.queryRunner?.isTransactionActive !== true)
    throw new Error(`${mark.name}: an insert is marked inside its transaction only`);
  await runStatement(manager, mark, {});
}

/** The pg_stat_activity rows of the service's own inserts into `table` in flight, marked as `marking` says. */
function insertingSql(table: string, marking: InsertMarking): string {
  return marking === 'statement'
    ? `application_name = current_setting('application_name')
                     AND xact_start IS NOT NULL AND starts_with(query, '${insertMarker(table)}')`
    : `application_name = ${markedApplicationNameSql(table)}
                     AND xact_start IS NOT NULL`;
}

/**
 * The horizon of `table`, to be read by its own statement before the page's: an insert that stamped a row before this
 * statement's start and has not committed is seen here in flight, in a transaction started at or before its stamp.
 * Only the service's own connections count (their application_name: the only writers of its tables; as the same
 * role, their xact_start and query are visible), and of them only those running an insert marked as `marking` says
 * (a table whose inserts are marked both ways lists both), so reads, updates and other services' transactions hold
 * nothing back.
 */
export function visibilityHorizonStatement(
  table: string,
  marking: InsertMarking | readonly InsertMarking[] = 'statement',
): SqlStatement<Record<never, never>, VisibilityHorizon> {
  const markings = typeof marking === 'string' ? [marking] : [...new Set(marking)];
  if (markings.length === 0) throw new Error(`visibility-horizon:${table}: no marking of its inserts`);
  const inserting =
    markings.length === 1
      ? insertingSql(table, markings[0])
      : `(${markings.map((each) => `(${insertingSql(table, each)})`).join('\n                     OR ')})`;
  return sqlStatement<Record<never, never>, VisibilityHorizon>({
    name: `visibility-horizon:${table}`,
    parameters: [],
    sql: `SELECT to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
                 h.at < statement_timestamp() AS held
            FROM (SELECT least(statement_timestamp(), min(xact_start)) AS at
                    FROM pg_stat_activity
                   WHERE datname = current_database() AND ${inserting}
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
