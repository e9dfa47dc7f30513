import { ValidationFailedError } from '@cpc/errors';
import { type Cursor, type CursorKeyKind, decodeCursor, encodeCursor, InvalidCursorError } from './cursor.js';
import type { Pagination } from './pagination.js';

/**
 * Keyset (seek) pagination: a page is "the `limit` rows after (or before) this key in the list's order", found by
 * an index range scan that starts at the key, never by skipping OFFSET rows, so a deep page costs what the first one
 * does. Every list orders by a time and a unique id in the same direction, which is the tail of its index.
 */

export type SortOrder = 'ASC' | 'DESC';

/** `pagination.cursor`: where the previous and the next page start; a link is absent when there is no such page. */
export interface CursorLinks {
  next?: string;
  prev?: string;
}

/** The pagination object of a page read by cursor (no page numbers: those would need a count). */
export interface CursorPagination {
  page_size: number;
  has_more: boolean;
  cursor: CursorLinks;
}

/** The pagination object of a numbered page of a list that also offers cursors (to go on from here by cursor). */
export interface PageWithCursors extends Pagination {
  cursor: CursorLinks;
}

/** How a statement reads one page: its ORDER BY direction, the comparison with the cursor's key, and whether to turn the rows round. */
export interface KeysetRead {
  order: SortOrder;
  /** Absent on a first page (no cursor). */
  comparison?: '<' | '>';
  /** Read backwards (a `before` cursor): the statement sorts against the list's order and the rows are reversed. */
  reversed: boolean;
}

export function keysetRead(listOrder: SortOrder, cursor?: Cursor): KeysetRead {
  if (!cursor) return { order: listOrder, reversed: false };
  const forward = cursor.direction === 'after';
  const order: SortOrder = forward ? listOrder : listOrder === 'ASC' ? 'DESC' : 'ASC';
  return { order, comparison: order === 'ASC' ? '>' : '<', reversed: !forward };
}

/** One key column: the column, the named parameter holding the cursor's value, and the parameter's SQL type. */
export interface KeysetColumn {
  column: string;
  parameter: string;
  type: 'timestamptz' | 'uuid' | 'bigint';
}

/**
 * `(a, b) > (:p1::type, :p2::type)`: a row comparison, which PostgreSQL answers as one range of an index ending in
 * (a, b) when every column is sorted in the same direction.
 */
export function keysetPredicate(columns: readonly KeysetColumn[], comparison: '<' | '>'): string {
  const left = columns.map((key) => key.column).join(', ');
  const right = columns.map((key) => `:${key.parameter}::${key.type}`).join(', ');
  return `(${left}) ${comparison} (${right})`;
}

/** A timestamptz column as a cursor key: UTC with microseconds, so the key is exact (JavaScript dates stop at ms). */
export function cursorTimeSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The named parameters a keyset statement takes for a cursor's key (one per key column, in order). */
export function keysetParameters(columns: readonly KeysetColumn[], cursor?: Cursor): Record<string, string> {
  if (!cursor) return {};
  return Object.fromEntries(columns.map((key, index) => [key.parameter, cursor.key[index]]));
}

/** `cursor` as the request sent it, decoded for this list; a 422 on `cursor` when it is not one of this list's. */
export function readCursorParameter(
  scope: string,
  text: string | undefined,
  kinds: readonly CursorKeyKind[],
): Cursor | undefined {
  if (text === undefined) return undefined;
  try {
    return decodeCursor(scope, text, kinds);
  } catch (error) {
    if (error instanceof InvalidCursorError)
      throw ValidationFailedError.single('cursor', 'invalid_cursor', error.message);
    throw error;
  }
}

export interface CursorPageOptions<TRow> {
  scope: string;
  limit: number;
  cursor?: Cursor;
  read: KeysetRead;
  keyOf: (row: TRow) => string[];
}

/**
 * One page read by cursor from the rows the statement returned (up to `limit + 1` in its order: the extra row only
 * says that more follow). `next` points past the last row, `prev` before the first.
 */
export function cursorPage<TRow>(
  fetched: readonly TRow[],
  options: CursorPageOptions<TRow>,
): { rows: TRow[]; pagination: CursorPagination } {
  const { scope, limit, cursor, read, keyOf } = options;
  const beyond = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (read.reversed) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const links: CursorLinks = {};
  // Reading forwards, rows precede this page only when a cursor brought us here; reading backwards, rows follow it.
  const moreBefore = read.reversed ? beyond : cursor !== undefined;
  const moreAfter = read.reversed ? true : beyond;
  if (first !== undefined && moreBefore)
    links.prev = encodeCursor(scope, { direction: 'before', key: keyOf(first) });
  if (last !== undefined && moreAfter)
    links.next = encodeCursor(scope, { direction: 'after', key: keyOf(last) });
  return { rows, pagination: { page_size: limit, has_more: links.next !== undefined, cursor: links } };
}

/** The cursors of a numbered page, so a client can go on from it by cursor. */
export function pageCursorLinks<TRow>(
  rows: readonly TRow[],
  pagination: Pagination,
  scope: string,
  keyOf: (row: TRow) => string[],
): PageWithCursors {
  const links: CursorLinks = {};
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first !== undefined && pagination.page > 1)
    links.prev = encodeCursor(scope, { direction: 'before', key: keyOf(first) });
  if (last !== undefined && pagination.has_more)
    links.next = encodeCursor(scope, { direction: 'after', key: keyOf(last) });
  return { ...pagination, cursor: links };
}

/** A key column of a list and the direction the list sorts it in (columns may differ: newest first, ties by id). */
export interface OrderedKeysetColumn extends KeysetColumn {
  order: SortOrder;
}

/**
 * The ORDER BY and WHERE of one page of a list sorted by `columns`: the rows after (`after`) or before (`before`) the
 * cursor's key in the list's order, sorted to be read from there (against the list's order when reading back, so
 * the rows must be reversed). With every column in one direction the condition is a row comparison; with mixed
 * directions it leads with the first column's bound, so the index range still starts at the key.
 */
export function keysetSeek(
  columns: readonly OrderedKeysetColumn[],
  side: 'after' | 'before',
): { orderBy: string; predicate: string } {
  const flip = (order: SortOrder): SortOrder => (order === 'ASC' ? 'DESC' : 'ASC');
  const readOrder = (column: OrderedKeysetColumn) => (side === 'after' ? column.order : flip(column.order));
  const orderBy = columns.map((column) => `${column.column} ${readOrder(column)}`).join(', ');
  const beyond = (column: OrderedKeysetColumn) => (readOrder(column) === 'ASC' ? '>' : '<');
  const value = (column: OrderedKeysetColumn) => `:${column.parameter}::${column.type}`;
  if (columns.every((column) => column.order === columns[0].order))
    return { orderBy, predicate: keysetPredicate(columns, beyond(columns[0])) };
  const alternatives = columns.map((column, index) =>
    [
      ...columns.slice(0, index).map((previous) => `${previous.column} = ${value(previous)}`),
      `${column.column} ${beyond(column)} ${value(column)}`,
    ].join(' AND '),
  );
  const lead = `${columns[0].column} ${beyond(columns[0])}= ${value(columns[0])}`;
  return { orderBy, predicate: `${lead} AND (${alternatives.map((part) => `(${part})`).join(' OR ')})` };
}

/** The cursor key kind of each SQL key type. */
export function cursorKeyKinds(columns: readonly KeysetColumn[]): CursorKeyKind[] {
  return columns.map((column) =>
    column.type === 'timestamptz' ? 'timestamp' : column.type === 'uuid' ? 'uuid' : 'bigint',
  );
}

/** A key column selected as the exact text a cursor holds (`cursor_key_<n>`). */
export function cursorKeySelect(columns: readonly KeysetColumn[]): string {
  return columns
    .map((column, index) =>
      column.type === 'timestamptz'
        ? `${cursorTimeSql(column.column)} AS cursor_key_${index}`
        : `${column.column}::text AS cursor_key_${index}`,
    )
    .join(', ');
}
