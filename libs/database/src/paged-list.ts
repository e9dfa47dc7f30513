import {
  buildPagination,
  type CursorPagination,
  cursorKeyKinds,
  cursorKeySelect,
  cursorPage,
  keysetParameters,
  keysetRead,
  keysetSeek,
  type OrderedKeysetColumn,
  pageCursorLinks,
  type PageWithCursors,
  pageOffset,
  readCursorParameter,
} from '@cpc/pagination';
import type { DataSource, EntityManager } from 'typeorm';
import { runStatement, type SqlParameters, type SqlStatement, sqlStatement } from './sql-statement.js';

/**
 * The statements of a list that offers both pagination styles, written once from its parts: a numbered page
 * (LIMIT/OFFSET, with a count for total_pages) and a page read by cursor after or before a key (keyset: the index
 * range starts at the key, no OFFSET, no count, so any page costs what the first does).
 */
export interface PagedListDefinition<TFilter extends SqlParameters> {
  /** The statements are named `<name>`, `<name>:count`, `<name>:after`, `<name>:before`. */
  name: string;
  /** The columns of a row. */
  select: string;
  /** `FROM … WHERE …` of the list's rows; the keyset condition is added to the WHERE clause with AND. */
  from: string;
  filterParameters: readonly (keyof TFilter & string)[];
  /** The list's order: a time, then ids until a row is unique; the tail of the list's index. */
  key: readonly OrderedKeysetColumn[];
}

type Limited<TFilter> = TFilter & { limit: number };
/** A row with its sort key as cursor text (`cursor_key_<n>`), which only the cursors carry. */
type KeyedRow<TRow> = TRow & Record<`cursor_key_${number}`, string>;

export interface PagedListStatements<TFilter extends SqlParameters, TRow> {
  key: readonly OrderedKeysetColumn[];
  page: SqlStatement<Limited<TFilter> & { offset: number }, KeyedRow<TRow>>;
  count: SqlStatement<TFilter, { total: number }>;
  after: SqlStatement<Limited<TFilter>, KeyedRow<TRow>>;
  before: SqlStatement<Limited<TFilter>, KeyedRow<TRow>>;
  /** Every statement, for SQL snapshots. */
  all: readonly SqlStatement<never, unknown>[];
}

export function pagedListStatements<TFilter extends SqlParameters, TRow>(
  definition: PagedListDefinition<TFilter>,
): PagedListStatements<TFilter, TRow> {
  const { name, select, from, filterParameters, key } = definition;
  const columns = `${select}, ${cursorKeySelect(key)}`;
  const listOrder = key.map((column) => `${column.column} ${column.order}`).join(', ');
  const keyParameters = key.map((column) => column.parameter);
  const seek = (side: 'after' | 'before') => {
    const { orderBy, predicate } = keysetSeek(key, side);
    return sqlStatement<Limited<TFilter>, KeyedRow<TRow>>({
      name: `${name}:${side}`,
      parameters: [...filterParameters, ...keyParameters, 'limit'] as (keyof Limited<TFilter> & string)[],
      sql: `SELECT ${columns}
       ${from}
          AND ${predicate}
        ORDER BY ${orderBy}
        LIMIT :limit`,
    });
  };
  const page = sqlStatement<Limited<TFilter> & { offset: number }, KeyedRow<TRow>>({
    name,
    parameters: [...filterParameters, 'limit', 'offset'] as (keyof (Limited<TFilter> & { offset: number }) &
      string)[],
    sql: `SELECT ${columns}
       ${from}
        ORDER BY ${listOrder}
        LIMIT :limit OFFSET :offset`,
  });
  const count = sqlStatement<TFilter, { total: number }>({
    name: `${name}:count`,
    parameters: filterParameters,
    sql: `SELECT count(*)::integer AS total ${from}`,
  });
  const after = seek('after');
  const before = seek('before');
  return {
    key,
    page,
    count,
    after,
    before,
    all: [page, count, after, before] as SqlStatement<never, unknown>[],
  };
}

export interface PagedListRequest {
  page: number;
  limit: number;
  /** Read by cursor instead of by page number. */
  cursor?: string;
}

/**
 * One page of a list: numbered (with its count, and cursors to go on from it) or, with `request.cursor`, read by
 * keyset from the cursor's key. A cursor that is not one of `scope` (the list, tenant, filters) is a 422 on cursor.
 */
export async function runPagedList<TFilter extends SqlParameters, TRow>(
  runner: DataSource | EntityManager,
  statements: PagedListStatements<TFilter, TRow>,
  filter: TFilter,
  request: PagedListRequest,
  scope: string,
): Promise<{ rows: TRow[]; pagination: PageWithCursors | CursorPagination }> {
  const { key } = statements;
  const keyOf = (row: KeyedRow<TRow>) => key.map((_column, index) => row[`cursor_key_${index}`]);
  const strip = (row: KeyedRow<TRow>): TRow => {
    const copy: Record<string, unknown> = { ...row };
    key.forEach((_column, index) => delete copy[`cursor_key_${index}`]);
    return copy as TRow;
  };
  if (request.cursor !== undefined) {
    const cursor = readCursorParameter(scope, request.cursor, cursorKeyKinds(key));
    // Each column's direction is in the key: read "forwards" in the sense of the key (ASC here means list order).
    const read = keysetRead('ASC', cursor);
    const statement = cursor?.direction === 'before' ? statements.before : statements.after;
    const fetched = await runStatement(runner, statement, {
      ...filter,
      ...keysetParameters(key, cursor),
      limit: request.limit + 1,
    });
    const { rows, pagination } = cursorPage(fetched, { scope, limit: request.limit, cursor, read, keyOf });
    return { rows: rows.map(strip), pagination };
  }
  const [rows, [{ total }]] = await Promise.all([
    runStatement(runner, statements.page, { ...filter, limit: request.limit, offset: pageOffset(request) }),
    runStatement(runner, statements.count, filter),
  ]);
  const pagination = pageCursorLinks(rows, buildPagination(request, total), scope, keyOf);
  return { rows: rows.map(strip), pagination };
}
