import { DomainError } from '@cpc/errors';
import { cursorScope, decodeCursor, encodeCursor, InvalidCursorError, MAX_CURSOR_LENGTH } from './cursor.js';
import {
  cursorKeyKinds,
  cursorKeySelect,
  cursorPage,
  keysetSeek,
  keysetParameters,
  keysetPredicate,
  keysetRead,
  pageCursorLinks,
  readCursorParameter,
} from './keyset.js';

const TENANT = '11111111-1111-4111-8111-111111111111';
const OTHER_TENANT = '22222222-2222-4222-8222-222222222222';
const KINDS = ['timestamp', 'uuid'] as const;
const KEY = ['2026-11-26T04:18:43.123456Z', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'];
const scope = cursorScope('commands', TENANT, { filter: { status: 'pending' }, order: 'DESC' });

describe('cursor encoding', () => {
  it('round-trips direction and key, opaque and URL-safe', () => {
    const text = encodeCursor(scope, { direction: 'before', key: KEY });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).not.toContain(KEY[1]);
    expect(decodeCursor(scope, text, KINDS)).toEqual({ direction: 'before', key: KEY });
  });

  it('builds the same scope whatever the order of the filter keys', () => {
    expect(cursorScope('l', TENANT, { a: 1, b: { c: 2, d: [1] } })).toBe(
      cursorScope('l', TENANT, { b: { d: [1], c: 2 }, a: 1, e: undefined }),
    );
  });

  it("refuses another tenant's cursor, and one of the same list with another filter", () => {
    const text = encodeCursor(scope, { direction: 'after', key: KEY });
    const otherTenant = cursorScope('commands', OTHER_TENANT, {
      filter: { status: 'pending' },
      order: 'DESC',
    });
    const otherFilter = cursorScope('commands', TENANT, { filter: { status: 'sent' }, order: 'DESC' });
    expect(() => decodeCursor(otherTenant, text, KINDS)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(otherFilter, text, KINDS)).toThrow(InvalidCursorError);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
    ['an array', Buffer.from('[1]').toString('base64url')],
    ['too long', 'a'.repeat(MAX_CURSOR_LENGTH + 1)],
  ])('refuses a cursor that is %s', (_label, text) => {
    expect(() => decodeCursor(scope, text, KINDS)).toThrow(InvalidCursorError);
  });

  const forge = (body: object) => {
    const real = JSON.parse(
      Buffer.from(encodeCursor(scope, { direction: 'after', key: KEY }), 'base64url').toString(),
    ) as object;
    return Buffer.from(JSON.stringify({ ...real, ...body })).toString('base64url');
  };

  it.each([
    ['a version from elsewhere', { v: 2 }],
    ['no direction', { d: 'x' }],
    ['a key of the wrong length', { k: [KEY[0]] }],
    ['SQL in the key', { k: ["2026-01-01'; DROP TABLE x; --", KEY[1]] }],
    ['an impossible date', { k: ['2026-02-31T00:00:00.000000Z', KEY[1]] }],
    ['a date without microseconds', { k: ['2026-02-01T00:00:00Z', KEY[1]] }],
    ['an id that is no uuid', { k: [KEY[0], 'not-a-uuid'] }],
    ['a number for a string', { k: [KEY[0], 5] }],
  ])('refuses an altered cursor with %s', (_label, body) => {
    expect(() => decodeCursor(scope, forge(body), KINDS)).toThrow(InvalidCursorError);
  });

  it('checks bigint keys', () => {
    const text = encodeCursor(scope, { direction: 'after', key: ['12345'] });
    expect(decodeCursor(scope, text, ['bigint']).key).toEqual(['12345']);
    const bad = encodeCursor(scope, { direction: 'after', key: ['-1'] });
    expect(() => decodeCursor(scope, bad, ['bigint'])).toThrow(InvalidCursorError);
  });

  it('answers a bad cursor parameter with a validation error naming cursor', () => {
    expect(readCursorParameter(scope, undefined, KINDS)).toBeUndefined();
    let thrown: unknown;
    try {
      readCursorParameter(scope, 'garbage!', KINDS);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).issues).toEqual([
      expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' }),
    ]);
  });
});

describe('keyset SQL', () => {
  const columns = [
    { column: 'command.created_at', parameter: 'cursorAt', type: 'timestamptz' },
    { column: 'command.uuid', parameter: 'cursorUuid', type: 'uuid' },
  ] as const;

  it('compares the key columns as one row value', () => {
    expect(keysetPredicate(columns, '<')).toBe(
      '(command.created_at, command.uuid) < (:cursorAt::timestamptz, :cursorUuid::uuid)',
    );
  });

  it('reads forwards in the list order and backwards against it', () => {
    expect(keysetRead('DESC')).toEqual({ order: 'DESC', reversed: false });
    expect(keysetRead('DESC', { direction: 'after', key: KEY })).toEqual({
      order: 'DESC',
      comparison: '<',
      reversed: false,
    });
    expect(keysetRead('DESC', { direction: 'before', key: KEY })).toEqual({
      order: 'ASC',
      comparison: '>',
      reversed: true,
    });
    expect(keysetRead('ASC', { direction: 'after', key: KEY })).toEqual({
      order: 'ASC',
      comparison: '>',
      reversed: false,
    });
    expect(keysetRead('ASC', { direction: 'before', key: KEY })).toEqual({
      order: 'DESC',
      comparison: '<',
      reversed: true,
    });
  });

  it('names the cursor key values as the statement parameters', () => {
    expect(keysetParameters(columns)).toEqual({});
    expect(keysetParameters(columns, { direction: 'after', key: KEY })).toEqual({
      cursorAt: KEY[0],
      cursorUuid: KEY[1],
    });
  });
});

describe('cursor pages', () => {
  const keyOf = (row: number) => [String(row)];
  const decode = (text: string | undefined) => decodeCursor(scope, text!, ['bigint']);

  it('says a first page has more when the statement found the extra row', () => {
    const page = cursorPage([1, 2, 3], { scope, limit: 2, read: keysetRead('ASC'), keyOf });
    expect(page.rows).toEqual([1, 2]);
    expect(page.pagination.has_more).toBe(true);
    expect(page.pagination.cursor.prev).toBeUndefined();
    expect(decode(page.pagination.cursor.next)).toEqual({ direction: 'after', key: ['2'] });
  });

  it('offers no next link on the last page but a prev link after a cursor', () => {
    const cursor = { direction: 'after', key: ['2'] } as const;
    const page = cursorPage([3], { scope, limit: 2, cursor, read: keysetRead('ASC', cursor), keyOf });
    expect(page.pagination).toEqual({
      page_size: 2,
      has_more: false,
      cursor: { prev: expect.any(String) },
    });
    expect(decode(page.pagination.cursor.prev)).toEqual({ direction: 'before', key: ['3'] });
  });

  it('turns a backward read round and offers prev only when rows precede it', () => {
    const cursor = { direction: 'before', key: ['3'] } as const;
    const read = keysetRead('ASC', cursor);
    const middle = cursorPage([2, 1, 0], { scope, limit: 2, cursor, read, keyOf });
    expect(middle.rows).toEqual([1, 2]);
    expect(decode(middle.pagination.cursor.prev)).toEqual({ direction: 'before', key: ['1'] });
    expect(decode(middle.pagination.cursor.next)).toEqual({ direction: 'after', key: ['2'] });
    const first = cursorPage([1, 0], { scope, limit: 2, cursor, read, keyOf });
    expect(first.rows).toEqual([0, 1]);
    expect(first.pagination.cursor.prev).toBeUndefined();
  });

  it('gives an empty list no links', () => {
    expect(cursorPage([], { scope, limit: 2, read: keysetRead('DESC'), keyOf }).pagination).toEqual({
      page_size: 2,
      has_more: false,
      cursor: {},
    });
  });

  it('gives numbered pages cursors to go on from', () => {
    const links = pageCursorLinks(
      [5, 6],
      { page: 2, total_pages: 3, page_size: 2, has_more: true },
      scope,
      keyOf,
    );
    expect(decode(links.cursor.prev)).toEqual({ direction: 'before', key: ['5'] });
    expect(decode(links.cursor.next)).toEqual({ direction: 'after', key: ['6'] });
    expect(
      pageCursorLinks([1], { page: 1, total_pages: 1, page_size: 2, has_more: false }, scope, keyOf).cursor,
    ).toEqual({});
  });
});

describe('keyset seek', () => {
  const newestFirst = [
    { column: 'occurred_at', parameter: 'cursorAt', type: 'timestamptz', order: 'DESC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ] as const;

  it('uses a row comparison when every column sorts one way', () => {
    const columns = newestFirst.map((column) => ({ ...column, order: 'ASC' as const }));
    expect(keysetSeek(columns, 'after')).toEqual({
      orderBy: 'occurred_at ASC, uuid ASC',
      predicate: '(occurred_at, uuid) > (:cursorAt::timestamptz, :cursorUuid::uuid)',
    });
    expect(keysetSeek(columns, 'before')).toEqual({
      orderBy: 'occurred_at DESC, uuid DESC',
      predicate: '(occurred_at, uuid) < (:cursorAt::timestamptz, :cursorUuid::uuid)',
    });
  });

  it('expands mixed directions, leading with the first column as the index bound', () => {
    expect(keysetSeek(newestFirst, 'after')).toEqual({
      orderBy: 'occurred_at DESC, uuid ASC',
      predicate:
        'occurred_at <= :cursorAt::timestamptz AND ((occurred_at < :cursorAt::timestamptz) OR ' +
        '(occurred_at = :cursorAt::timestamptz AND uuid > :cursorUuid::uuid))',
    });
    expect(keysetSeek(newestFirst, 'before')).toEqual({
      orderBy: 'occurred_at ASC, uuid DESC',
      predicate:
        'occurred_at >= :cursorAt::timestamptz AND ((occurred_at > :cursorAt::timestamptz) OR ' +
        '(occurred_at = :cursorAt::timestamptz AND uuid < :cursorUuid::uuid))',
    });
  });

  it('selects the key columns as cursor text and names their kinds', () => {
    const columns = [
      ...newestFirst,
      { column: 'sample_index', parameter: 'cursorIndex', type: 'bigint' } as const,
    ];
    expect(cursorKeySelect(columns)).toBe(
      `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_key_0, ` +
        'uuid::text AS cursor_key_1, sample_index::text AS cursor_key_2',
    );
    expect(cursorKeyKinds(columns)).toEqual(['timestamp', 'uuid', 'bigint']);
  });
});
