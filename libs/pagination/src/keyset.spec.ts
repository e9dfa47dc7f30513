import { cursorScope, decodeCursor, encodeCursor, InvalidCursorError } from './cursor.js';
import {
  cursorPage,
  keysetCondition,
  keysetRead,
  pageAtHorizon,
  pageCursorLinks,
  type SortKeyColumn,
  sortKeyKinds,
  sortKeySelect,
} from './keyset.js';
import { buildPagination } from './pagination.js';

const TIME = '2026-11-26T04:18:43.123456Z';
const UUID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const newest: SortKeyColumn = { column: 'p.created_at', type: 'timestamptz', order: 'DESC' };
const oldest: SortKeyColumn = { ...newest, order: 'ASC' };
const byUuid: SortKeyColumn = { column: 'p.uuid', type: 'uuid', order: 'ASC' };
const name: SortKeyColumn = { column: 'p.name', type: 'text', order: 'ASC', nullable: true };
const connector: SortKeyColumn = { column: 'p.connector_id', type: 'bigint', order: 'DESC' };

describe('keysetCondition', () => {
  it('is a row comparison when every column sorts one way and none can be NULL', () => {
    const ascending = [oldest, byUuid];
    expect(keysetCondition(ascending, 'after', [TIME, UUID])).toEqual({
      orderBy: [
        { column: 'p.created_at', order: 'ASC' },
        { column: 'p.uuid', order: 'ASC' },
      ],
      predicate: '(p.created_at, p.uuid) > (:cursorKey0::timestamptz, :cursorKey1::uuid)',
      parameters: { cursorKey0: TIME, cursorKey1: UUID },
    });
    // Reading back: every direction flipped, the comparison too.
    const before = keysetCondition(ascending, 'before', [TIME, UUID]);
    expect(before.orderBy.map((entry) => entry.order)).toEqual(['DESC', 'DESC']);
    expect(before.predicate).toBe('(p.created_at, p.uuid) < (:cursorKey0::timestamptz, :cursorKey1::uuid)');
  });

  it('expands the default order (newest first, uuid ascending), led by the time as the index bound', () => {
    const after = keysetCondition([newest, byUuid], 'after', [TIME, UUID]);
    expect(after.orderBy).toEqual([
      { column: 'p.created_at', order: 'DESC' },
      { column: 'p.uuid', order: 'ASC' },
    ]);
    expect(after.predicate).toBe(
      'p.created_at <= :cursorKey0::timestamptz AND ((p.created_at < :cursorKey0::timestamptz) OR ' +
        '(p.created_at = :cursorKey0::timestamptz AND p.uuid > :cursorKey1::uuid))',
    );
    const before = keysetCondition([newest, byUuid], 'before', [TIME, UUID]);
    expect(before.orderBy).toEqual([
      { column: 'p.created_at', order: 'ASC' },
      { column: 'p.uuid', order: 'DESC' },
    ]);
    expect(before.predicate).toBe(
      'p.created_at >= :cursorKey0::timestamptz AND ((p.created_at > :cursorKey0::timestamptz) OR ' +
        '(p.created_at = :cursorKey0::timestamptz AND p.uuid < :cursorKey1::uuid))',
    );
  });

  it('honours each chosen field and direction (three columns, mixed)', () => {
    const { predicate, parameters } = keysetCondition([connector, oldest, byUuid], 'after', [
      '3',
      TIME,
      UUID,
    ]);
    expect(predicate).toBe(
      'p.connector_id <= :cursorKey0::bigint AND ((p.connector_id < :cursorKey0::bigint) OR ' +
        '(p.connector_id = :cursorKey0::bigint AND p.created_at > :cursorKey1::timestamptz) OR ' +
        '(p.connector_id = :cursorKey0::bigint AND p.created_at = :cursorKey1::timestamptz AND ' +
        'p.uuid > :cursorKey2::uuid))',
    );
    expect(parameters).toEqual({ cursorKey0: '3', cursorKey1: TIME, cursorKey2: UUID });
  });

  it('places NULL where PostgreSQL sorts it: after every value ascending', () => {
    // A named row, ascending: the NULL names follow it.
    expect(keysetCondition([name, byUuid], 'after', ['Bay', UUID]).predicate).toBe(
      '(p.name >= :cursorKey0::text OR p.name IS NULL) AND (((p.name > :cursorKey0::text OR p.name IS NULL)) OR ' +
        '(p.name = :cursorKey0::text AND p.uuid > :cursorKey1::uuid))',
    );
    // A NULL-named row, ascending: only NULL names after it, by uuid.
    const afterNull = keysetCondition([name, byUuid], 'after', [null, UUID]);
    expect(afterNull.predicate).toBe('p.name IS NULL AND ((p.name IS NULL AND p.uuid > :cursorKey1::uuid))');
    expect(afterNull.parameters).toEqual({ cursorKey1: UUID });
    // Back from a NULL-named row: every named row precedes it, then the NULL names before it.
    expect(keysetCondition([name, byUuid], 'before', [null, UUID]).predicate).toBe(
      '((p.name IS NOT NULL) OR (p.name IS NULL AND p.uuid < :cursorKey1::uuid))',
    );
    // Back from a named row: NULL names come after every value, so never before it.
    expect(keysetCondition([name, byUuid], 'before', ['Bay', UUID]).predicate).toBe(
      'p.name <= :cursorKey0::text AND ((p.name < :cursorKey0::text) OR ' +
        '(p.name = :cursorKey0::text AND p.uuid < :cursorKey1::uuid))',
    );
  });

  it('places NULL where PostgreSQL sorts it: before every value descending', () => {
    const descending: SortKeyColumn = { ...name, order: 'DESC' };
    // From a NULL-named row, newest names first: every named row follows it.
    expect(keysetCondition([descending, byUuid], 'after', [null, UUID]).predicate).toBe(
      '((p.name IS NOT NULL) OR (p.name IS NULL AND p.uuid > :cursorKey1::uuid))',
    );
    // From a named row descending: only smaller names follow (NULLs came first).
    expect(keysetCondition([descending, byUuid], 'after', ['Bay', UUID]).predicate).toBe(
      'p.name <= :cursorKey0::text AND ((p.name < :cursorKey0::text) OR ' +
        '(p.name = :cursorKey0::text AND p.uuid > :cursorKey1::uuid))',
    );
  });

  it('refuses a key that does not fit the columns', () => {
    expect(() => keysetCondition([newest, byUuid], 'after', [TIME])).toThrow();
  });
});

describe('sort keys in cursors', () => {
  const scope = cursorScope('assets.plug.list.v1', UUID, { filter: {}, order: ['+name'] });

  it('names a kind per column, nullable ones accepting null', () => {
    expect(sortKeyKinds([name, connector, newest, byUuid])).toEqual([
      'text-or-null',
      'bigint',
      'timestamp',
      'uuid',
    ]);
  });

  it('selects the exact text a cursor holds: times with microseconds, the rest as text', () => {
    expect(sortKeySelect(newest)).toBe(
      `to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    );
    expect(sortKeySelect(name)).toBe('p.name::text');
  });

  it('round-trips text keys (any characters) and null where the column can be NULL', () => {
    const kinds = sortKeyKinds([name, byUuid]);
    for (const key of [
      ['Bay "7" ñ 🚗 \\ ,', UUID],
      [null, UUID],
    ]) {
      const text = encodeCursor(scope, { direction: 'after', key });
      expect(decodeCursor(scope, text, kinds)).toEqual({ direction: 'after', key });
    }
  });

  it('refuses null where the column cannot be NULL, and a text with a NUL', () => {
    const nullTime = encodeCursor(scope, { direction: 'after', key: [null, UUID] });
    expect(() => decodeCursor(scope, nullTime, sortKeyKinds([newest, byUuid]))).toThrow(InvalidCursorError);
    const nul = encodeCursor(scope, { direction: 'after', key: ['a\u0000b', UUID] });
    expect(() => decodeCursor(scope, nul, sortKeyKinds([name, byUuid]))).toThrow(InvalidCursorError);
  });

  it('keeps a cursor of the longest name within the cursor length', () => {
    const longest = '\u0001'.repeat(200);
    const text = encodeCursor(scope, { direction: 'before', key: [longest, UUID] });
    expect(decodeCursor(scope, text, sortKeyKinds([name, byUuid])).key).toEqual([longest, UUID]);
  });
});

describe('pages cut at a visibility horizon', () => {
  const scope = cursorScope('list', 'tenant', {});
  const kinds = ['timestamp', 'uuid'] as const;
  const row = (second: number) => ({
    at: `2026-11-26T04:18:${String(second).padStart(2, '0')}.000000Z`,
    id: UUID,
  });
  const keyOf = (of: { at: string; id: string }) => [of.at, of.id];
  const timeOf = (of: { at: string }) => of.at;
  const horizon = { at: row(3).at, timeOf };
  const linkOf = (text: string | undefined) =>
    text === undefined ? undefined : decodeCursor(scope, text, kinds);

  it('ends an oldest-first page before the horizon and still leads on past its last row', () => {
    const cursor = { direction: 'after' as const, key: keyOf(row(0)) };
    const { rows, pagination } = cursorPage([row(1), row(2), row(3)], {
      scope,
      limit: 5,
      cursor,
      read: keysetRead('ASC', cursor),
      keyOf,
      horizon,
    });
    expect(rows).toEqual([row(1), row(2)]);
    expect(pagination.has_more).toBe(true);
    expect(linkOf(pagination.cursor.next)).toEqual({ direction: 'after', key: keyOf(row(2)) });
  });

  it('answers an empty page with its own cursor when every row beyond it is held back', () => {
    const cursor = { direction: 'after' as const, key: keyOf(row(2)) };
    const { rows, pagination } = cursorPage([row(3), row(4)], {
      scope,
      limit: 5,
      cursor,
      read: keysetRead('ASC', cursor),
      keyOf,
      horizon,
    });
    expect(rows).toEqual([]);
    expect(pagination).toMatchObject({ has_more: true, cursor: { next: encodeCursor(scope, cursor) } });
  });

  it('reading a newest-first list back, gives prev while rows are held back', () => {
    const cursor = { direction: 'before' as const, key: keyOf(row(0)) };
    const { rows, pagination } = cursorPage([row(1), row(3)], {
      scope,
      limit: 5,
      cursor,
      read: keysetRead('DESC', cursor),
      keyOf,
      horizon,
    });
    expect(rows).toEqual([row(1)]);
    expect(linkOf(pagination.cursor.prev)).toEqual({ direction: 'before', key: keyOf(row(1)) });
    expect(linkOf(pagination.cursor.next)).toEqual({ direction: 'after', key: keyOf(row(1)) });
  });

  it('gives a numbered page the cursors to the rows it holds back, an empty first page from the oldest key', () => {
    const oldestKey = [row(0).at, UUID];
    const counted = buildPagination({ page: 1, limit: 2 }, 1);
    const after = pageCursorLinks([row(1)], counted, scope, keyOf, { after: true });
    expect(after.has_more).toBe(true);
    expect(linkOf(after.cursor.next)).toEqual({ direction: 'after', key: keyOf(row(1)) });
    const before = pageCursorLinks([row(1)], counted, scope, keyOf, { before: true });
    expect(linkOf(before.cursor.prev)).toEqual({ direction: 'before', key: keyOf(row(1)) });
    const empty = pageCursorLinks([], counted, scope, keyOf, { before: true, oldest: oldestKey });
    expect(linkOf(empty.cursor.prev)).toEqual({ direction: 'before', key: oldestKey });
    expect(pageCursorLinks([row(1)], counted, scope, keyOf).cursor).toEqual({});
  });
});

describe('pageAtHorizon', () => {
  const rows = [{ at: 't1' }, { at: 't2' }, { at: 't3' }];
  const page = { limit: 2, oldest: ['t0'], timeOf: (row: { at: string }) => row.at };

  it('oldest first, cuts the rows read from the horizon on and says rows follow', async () => {
    let asked = false;
    const heldAbove = () => ((asked = true), Promise.resolve(true));
    await expect(
      pageAtHorizon(
        { at: 't2', held: true },
        { ...page, ascending: true, read: () => Promise.resolve(rows), heldAbove },
      ),
    ).resolves.toEqual({ rows: [{ at: 't1' }], heldBack: { after: true, oldest: ['t0'] } });
    expect(asked).toBe(false);
  });

  it('newest first, asks for rows held back above the page only while an insert was in flight', async () => {
    let asked = 0;
    const read = () => Promise.resolve(rows.slice(0, 2).reverse());
    const heldAbove = () => ((asked += 1), Promise.resolve(true));
    await expect(
      pageAtHorizon({ at: 't3', held: false }, { ...page, ascending: false, read, heldAbove }),
    ).resolves.toEqual({ rows: [{ at: 't2' }, { at: 't1' }], heldBack: { before: false, oldest: ['t0'] } });
    expect(asked).toBe(0);
    await expect(
      pageAtHorizon({ at: 't3', held: true }, { ...page, ascending: false, read, heldAbove }),
    ).resolves.toMatchObject({ heldBack: { before: true } });
    expect(asked).toBe(1);
  });
});
