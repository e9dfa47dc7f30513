import {
  buildPagination,
  type CursorPagination,
  cursorKeyKinds,
  cursorKeySelect,
  cursorPage,
  LOWEST_KEY_VALUE,
  keysetParameters,
  keysetRead,
  keysetSeek,
  type OrderedKeysetColumn,
  pageAtHorizon,
  pageCursorLinks,
  type PageWithCursors,
  pageOffset,
  readCursorParameter,
} from '@cpc/pagination';
import type { DataSource, EntityManager } from 'typeorm';
import { runStatement, type SqlParameters, type SqlStatement, sqlStatement } from './sql-statement.js';
import { type VisibilityHorizon, visibilityHorizon } from './visibility-horizon.js';

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
  /**
   * The table's visibility horizon (visibilityHorizonStatement), for a list sorted first by its rows' insert stamp
   * (key[0], stamped after the insert is marked): a page read towards newer rows reads it first and ends before it,
   * so its cursors never pass a row still being committed. Absent: rows come with their key, no horizon bounds them.
   */
  horizon?: HorizonStatement;
}

type HorizonStatement = SqlStatement<Record<never, never>, VisibilityHorizon>;

type Limited<TFilter> = TFilter & { limit: number };
/** A row with its sort key as cursor text (`cursor_key_<n>`), which only the cursors carry. */
type KeyedRow<TRow> = TRow & Record<`cursor_key_${number}`, string>;

export interface PagedListStatements<TFilter extends SqlParameters, TRow> {
  key: readonly OrderedKeysetColumn[];
  page: SqlStatement<Limited<TFilter> & { offset: number }, KeyedRow<TRow>>;
  count: SqlStatement<TFilter, { total: number }>;
  after: SqlStatement<Limited<TFilter>, KeyedRow<TRow>>;
  before: SqlStatement<Limited<TFilter>, KeyedRow<TRow>>;
  /** With a horizon (PagedListDefinition.horizon). */
  horizon?: PagedListHorizon<TFilter, TRow>;
  /** Every statement, for SQL snapshots. */
  all: readonly SqlStatement<never, unknown>[];
}

type BeforeHorizon<TFilter> = TFilter & { visibilityHorizon: string };

export interface PagedListHorizon<TFilter extends SqlParameters, TRow> {
  read: HorizonStatement;
  /**
   * A newest-first list's (key[0] DESC) numbered page, of the rows stamped before :visibilityHorizon, and whether a
   * row stamped from there on is readable (held back above the page: its prev). Oldest first, a numbered page reads
   * one row more instead and cuts at the horizon.
   */
  newestFirst?: {
    page: SqlStatement<Limited<BeforeHorizon<TFilter>> & { offset: number }, KeyedRow<TRow>>;
    heldBack: SqlStatement<BeforeHorizon<TFilter>, { held_back: boolean }>;
  };
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
  const horizon =
    definition.horizon && listHorizon<TFilter, TRow>(definition, definition.horizon, columns, listOrder);
  const horizonStatements = horizon?.newestFirst
    ? [horizon.newestFirst.page, horizon.newestFirst.heldBack]
    : [];
  return {
    key,
    page,
    count,
    after,
    before,
    horizon,
    all: [page, count, after, before, ...horizonStatements] as SqlStatement<never, unknown>[],
  };
}

/** The horizon's statements of a list sorted by its insert stamp first (see PagedListDefinition.horizon). */
function listHorizon<TFilter extends SqlParameters, TRow>(
  definition: PagedListDefinition<TFilter>,
  horizon: HorizonStatement,
  columns: string,
  listOrder: string,
): PagedListHorizon<TFilter, TRow> {
  const { name, from, filterParameters, key } = definition;
  const [stamp] = key;
  if (stamp.type !== 'timestamptz')
    throw new Error(`${name}: a horizon bounds a list sorted by a time first`);
  if (stamp.order === 'ASC') return { read: horizon };
  const bounded = [...filterParameters, 'visibilityHorizon'] as (keyof BeforeHorizon<TFilter> & string)[];
  return {
    read: horizon,
    newestFirst: {
      page: sqlStatement<Limited<BeforeHorizon<TFilter>> & { offset: number }, KeyedRow<TRow>>({
        name: `${name}:before-horizon`,
        parameters: [...bounded, 'limit', 'offset'],
        sql: `SELECT ${columns}
       ${from}
          AND ${stamp.column} < :visibilityHorizon::timestamptz
        ORDER BY ${listOrder}
        LIMIT :limit OFFSET :offset`,
      }),
      heldBack: sqlStatement<BeforeHorizon<TFilter>, { held_back: boolean }>({
        name: `${name}:held-back`,
        parameters: bounded,
        sql: `SELECT EXISTS (SELECT ${from}
          AND ${stamp.column} >= :visibilityHorizon::timestamptz) AS held_back`,
      }),
    },
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
 * With a horizon, a page read towards newer rows (every numbered page; by cursor, `next` oldest first and `prev`
 * newest first) reads it first and ends before it; such a page keeps its link onwards while rows are held back.
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
  const { horizon } = statements;
  const timeOf = (row: KeyedRow<TRow>) => row.cursor_key_0;
  if (request.cursor !== undefined) {
    const cursor = readCursorParameter(scope, request.cursor, cursorKeyKinds(key));
    // Each column's direction is in the key: read "forwards" in the sense of the key (ASC here means list order).
    const read = keysetRead('ASC', cursor);
    const backwards = cursor?.direction === 'before';
    const statement = backwards ? statements.before : statements.after;
    // Read towards older rows, the page stays below the horizon of the page its cursor came from.
    const towardsNewer = backwards === (key[0].order === 'DESC');
    const seen = horizon && towardsNewer ? await visibilityHorizon(runner, horizon.read) : undefined;
    const fetched = await runStatement(runner, statement, {
      ...filter,
      ...keysetParameters(key, cursor),
      limit: request.limit + 1,
    });
    const { rows, pagination } = cursorPage(fetched, {
      scope,
      limit: request.limit,
      cursor,
      read,
      keyOf,
      horizon: seen && { at: seen.at, timeOf },
    });
    return { rows: rows.map(strip), pagination };
  }
  const offset = pageOffset(request);
  if (horizon === undefined) {
    const [rows, [{ total }]] = await Promise.all([
      runStatement(runner, statements.page, { ...filter, limit: request.limit, offset }),
      runStatement(runner, statements.count, filter),
    ]);
    const pagination = pageCursorLinks(rows, buildPagination(request, total), scope, keyOf);
    return { rows: rows.map(strip), pagination };
  }
  // A numbered page hands out cursors, so it ends at the horizon too: oldest first its rows beyond it are cut off
  // (an extra row read says whether any follow), newest first its statement starts its range below it.
  const oldest = key.map((column) => LOWEST_KEY_VALUE[column.type]);
  const { newestFirst } = horizon;
  const readPage = (seen: VisibilityHorizon) => {
    const bounded = { ...filter, visibilityHorizon: seen.at };
    return pageAtHorizon(seen, {
      ascending: newestFirst === undefined,
      limit: request.limit,
      oldest,
      timeOf,
      read: () =>
        newestFirst === undefined
          ? runStatement(runner, statements.page, { ...filter, limit: request.limit + 1, offset })
          : runStatement(runner, newestFirst.page, { ...bounded, limit: request.limit, offset }),
      heldAbove: async () =>
        newestFirst !== undefined && (await runStatement(runner, newestFirst.heldBack, bounded))[0].held_back,
    });
  };
  const [{ rows, heldBack }, [{ total }]] = await Promise.all([
    visibilityHorizon(runner, horizon.read).then(readPage),
    runStatement(runner, statements.count, filter),
  ]);
  const pagination = pageCursorLinks(rows, buildPagination(request, total), scope, keyOf, heldBack);
  return { rows: rows.map(strip), pagination };
}
