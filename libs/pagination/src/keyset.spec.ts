import { cursorScope, decodeCursor, encodeCursor, InvalidCursorError } from './cursor.js';
import { keysetCondition, type SortKeyColumn, sortKeyKinds, sortKeySelect } from './keyset.js';

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
