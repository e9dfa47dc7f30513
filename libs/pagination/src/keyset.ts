import { ValidationFailedError } from '@cpc/errors';
import {
  type Cursor,
  type CursorKeyKind,
  type CursorValueKind,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
} from './cursor.js';
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
export function keysetParameters(
  columns: readonly KeysetColumn[],
  cursor?: Cursor,
): Record<string, string | null> {
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

/** The horizon a page is cut at (visibilityHorizonStatement of libs/database) as a time key, and a row's time key. */
export interface PageHorizon<TRow> {
  at: string;
  timeOf: (row: TRow) => string;
}

export interface CursorPageOptions<TRow> {
  scope: string;
  limit: number;
  cursor?: Cursor;
  read: KeysetRead;
  keyOf: (row: TRow) => (string | null)[];
  /**
   * Reading towards newer rows (read.order ASC, the time column first in the key): the page ends before the first
   * row stamped at or after the horizon, and rows from there on count as rows beyond it.
   */
  horizon?: PageHorizon<TRow>;
}

/** The leading rows (read oldest first) stamped before the horizon: a row not readable yet can only follow them. */
export function beforeHorizon<TRow>(fetched: readonly TRow[], horizon?: PageHorizon<TRow>): TRow[] {
  if (!horizon) return [...fetched];
  const end = fetched.findIndex((row) => !(horizon.timeOf(row) < horizon.at));
  return end < 0 ? [...fetched] : fetched.slice(0, end);
}

/**
 * One page read by cursor from the rows the statement returned (up to `limit + 1` in its order: the extra row only
 * says that more follow). `next` points past the last row, `prev` before the first. A page cut at its horizon may be
 * short, even empty, while more rows follow: its link onwards is then past its last row, or the cursor it was read by.
 */
export function cursorPage<TRow>(
  fetched: readonly TRow[],
  options: CursorPageOptions<TRow>,
): { rows: TRow[]; pagination: CursorPagination } {
  const { scope, limit, cursor, read, keyOf } = options;
  const rows = beforeHorizon(fetched, options.horizon).slice(0, limit);
  const beyond = fetched.length > rows.length;
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
  // Nothing readable yet between the cursor and the horizon: the same position again, once the inserts committed.
  if (first === undefined && beyond && cursor !== undefined)
    links[read.reversed ? 'prev' : 'next'] = encodeCursor(scope, cursor);
  return { rows, pagination: { page_size: limit, has_more: links.next !== undefined, cursor: links } };
}

/**
 * What a numbered page read up to a horizon knows beyond its count: rows held back after it (read oldest first: the
 * rows cut off) or before it (read newest first: readable rows stamped at or after the horizon).
 */
export interface HeldBack {
  before?: boolean;
  after?: boolean;
  /** A key older than any row: where an empty page 1 points when rows are held back (newest first: prev). */
  oldest?: readonly (string | null)[];
}

/** A key value before any row's, per kind of key column: where an empty page 1 points when rows are held back. */
export const LOWEST_KEY_VALUE: Readonly<Record<SortKeyColumn['type'], string>> = {
  timestamptz: '0001-01-01T00:00:00.000000Z',
  uuid: '00000000-0000-0000-0000-000000000000',
  bigint: '0',
  text: '',
};

/**
 * A numbered page read up to a horizon (`held`: an insert was in flight). Oldest first, `read` returns up to limit + 1
 * rows and those from the horizon on are cut off (rows held back after the page); newest first, `read` returns the
 * page below the horizon, and `heldAbove`, asked only while an insert was in flight, whether readable rows stamped from
 * the horizon on were held back before it.
 */
export async function pageAtHorizon<TRow>(
  horizon: { at: string; held: boolean },
  page: {
    ascending: boolean;
    limit: number;
    oldest: readonly (string | null)[];
    timeOf: (row: TRow) => string;
    read: () => Promise<readonly TRow[]>;
    heldAbove: () => Promise<boolean>;
  },
): Promise<{ rows: TRow[]; heldBack: HeldBack }> {
  const { oldest } = page;
  if (page.ascending) {
    const fetched = await page.read();
    const rows = beforeHorizon(fetched, { at: horizon.at, timeOf: page.timeOf }).slice(0, page.limit);
    return { rows, heldBack: { after: fetched.length > rows.length, oldest } };
  }
  const [rows, before] = await Promise.all([page.read(), horizon.held ? page.heldAbove() : false]);
  return { rows: [...rows], heldBack: { before, oldest } };
}

/**
 * The cursors of a numbered page, so a client can go on from it by cursor. With rows held back after it, `next`
 * appears (and has_more) though the count may say this is the last page.
 */
export function pageCursorLinks<TRow>(
  rows: readonly TRow[],
  pagination: Pagination,
  scope: string,
  keyOf: (row: TRow) => (string | null)[],
  heldBack: HeldBack = {},
): PageWithCursors {
  const links: CursorLinks = {};
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first !== undefined && (pagination.page > 1 || heldBack.before === true))
    links.prev = encodeCursor(scope, { direction: 'before', key: keyOf(first) });
  if (last !== undefined && (pagination.has_more || heldBack.after === true))
    links.next = encodeCursor(scope, { direction: 'after', key: keyOf(last) });
  if (first === undefined && pagination.page === 1 && heldBack.oldest) {
    // Every row is held back: read them from the oldest, oldest first after it, newest first before it.
    if (heldBack.after) links.next = encodeCursor(scope, { direction: 'after', key: heldBack.oldest });
    if (heldBack.before) links.prev = encodeCursor(scope, { direction: 'before', key: heldBack.oldest });
  }
  return { ...pagination, has_more: pagination.has_more || links.next !== undefined, cursor: links };
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

/** A sort column of a list whose order the caller chooses: the SQL of the column, its key type, its order. */
export interface SortKeyColumn {
  column: string;
  type: 'timestamptz' | 'uuid' | 'bigint' | 'text';
  order: SortOrder;
  /** The column can be NULL; PostgreSQL sorts NULL after every value ascending and before every value descending. */
  nullable?: boolean;
}

/** The cursor key kind of each sort column. */
export function sortKeyKinds(columns: readonly SortKeyColumn[]): CursorKeyKind[] {
  return columns.map((column): CursorKeyKind => {
    const kind: CursorValueKind = column.type === 'timestamptz' ? 'timestamp' : column.type;
    return column.nullable ? `${kind}-or-null` : kind;
  });
}

/** A sort column selected as the exact text a cursor holds (NULL stays NULL). */
export function sortKeySelect(column: SortKeyColumn): string {
  return column.type === 'timestamptz' ? cursorTimeSql(column.column) : `${column.column}::text`;
}

/**
 * The ORDER BY, WHERE condition and its parameters of a page read after (`after`) or before (`before`) a cursor's key
 * in the order of `columns` (any directions, the last column unique), written for the key at hand: a NULL in the
 * key changes the condition's form, so it is not one fixed statement. NULL is placed as PostgreSQL's default ORDER BY
 * places it (after every value ascending, before every value descending: as if greater than any value), and reading
 * backwards flips each direction, which keeps NULL where the list has it.
 *
 * With every column in one direction and none nullable the condition is a row comparison (one index range); otherwise
 * it is the usual expansion (the first column beyond the key, or equal and the second beyond, …) led by the first
 * column's bound, so an index on the sort columns still starts its range at the key.
 */
export function keysetCondition(
  columns: readonly SortKeyColumn[],
  side: 'after' | 'before',
  key: readonly (string | null)[],
  parameterPrefix = 'cursorKey',
): {
  orderBy: { column: string; order: SortOrder }[];
  predicate: string;
  parameters: Record<string, string>;
} {
  if (key.length !== columns.length) throw new Error('a cursor key has one value per sort column');
  const flip = (order: SortOrder): SortOrder => (order === 'ASC' ? 'DESC' : 'ASC');
  const read = columns.map((column) => (side === 'after' ? column.order : flip(column.order)));
  const parameters: Record<string, string> = {};
  const value = (index: number): string => {
    const name = `${parameterPrefix}${index}`;
    parameters[name] = key[index] as string;
    return `:${name}::${columns[index].type}`;
  };
  const orderBy = columns.map((column, index) => ({ column: column.column, order: read[index] }));
  const nullable = columns.some((column, index) => column.nullable || key[index] === null);
  if (!nullable && read.every((order) => order === read[0])) {
    const left = columns.map((column) => column.column).join(', ');
    const right = columns.map((_column, index) => value(index)).join(', ');
    return { orderBy, predicate: `(${left}) ${read[0] === 'ASC' ? '>' : '<'} (${right})`, parameters };
  }
  /** The column compared with the key's value by `relation` in the reading direction; null: never true. */
  const compare = (index: number, relation: 'beyond' | 'equal' | 'atOrBeyond'): string | null => {
    const { column, nullable: canBeNull } = columns[index];
    const ascending = read[index] === 'ASC';
    if (key[index] === null) {
      // NULL sorts as the greatest value.
      if (relation === 'equal') return `${column} IS NULL`;
      if (ascending) return relation === 'beyond' ? null : `${column} IS NULL`;
      return relation === 'beyond' ? `${column} IS NOT NULL` : 'TRUE';
    }
    const operand = value(index);
    if (relation === 'equal') return `${column} = ${operand}`;
    const operator = (ascending ? '>' : '<') + (relation === 'atOrBeyond' ? '=' : '');
    return ascending && canBeNull
      ? `(${column} ${operator} ${operand} OR ${column} IS NULL)`
      : `${column} ${operator} ${operand}`;
  };
  const alternatives = columns.flatMap((_column, index) => {
    const parts = [
      ...columns.slice(0, index).map((_previous, previous) => compare(previous, 'equal')),
      compare(index, 'beyond'),
    ];
    return parts.includes(null) ? [] : [parts.join(' AND ')];
  });
  const either = alternatives.length === 0 ? 'FALSE' : alternatives.map((part) => `(${part})`).join(' OR ');
  const lead = columns.length > 1 ? compare(0, 'atOrBeyond') : null;
  const predicate = lead === null || lead === 'TRUE' ? `(${either})` : `${lead} AND (${either})`;
  return { orderBy, predicate, parameters };
}
