import { createHash } from 'node:crypto';

/**
 * Opaque cursors of the spec's cursor pagination style (`cursor` and `limit`, `pagination.cursor.next` / `prev`).
 *
 * A cursor names a position in one list: the sort key of the row it points past (its time with microseconds, then a
 * tie-breaking id) and the direction to read in. It carries a tag of the list's scope (list name, tenant, filter and
 * order), so a cursor is only good for the list it came from: another tenant's cursor, or one of the same list with
 * other filters, is refused as malformed rather than read as a position. The query itself is always limited to the
 * caller's tenant, so even a forged cursor only moves within the caller's own rows.
 */

export type CursorDirection = 'after' | 'before';

/** The kinds of value a key column can hold. */
export type CursorValueKind = 'timestamp' | 'uuid' | 'bigint' | 'text';

/**
 * The kinds of key a cursor can hold, each checked on decode so a cursor never reaches SQL as something else; `…-or-null`
 * for a column that can be NULL (the key then holds null).
 */
export type CursorKeyKind = CursorValueKind | `${CursorValueKind}-or-null`;

export interface Cursor {
  /** `after`: the rows that follow the key in the list's order; `before`: the rows that precede it. */
  direction: CursorDirection;
  /** The sort key of the row the cursor points past, one string per key column (null only where the column can be). */
  key: readonly (string | null)[];
}

/** A cursor that is not one this list handed out (malformed, altered, or of another list, filter or tenant). */
export class InvalidCursorError extends Error {
  constructor(reason: string) {
    super(`cursor is not valid for this list (${reason})`);
    this.name = 'InvalidCursorError';
  }
}

/**
 * Cursors are short; anything longer is refused before decoding. A key of a sorted text column (a name of up to 200
 * characters, each up to 6 bytes in the cursor's JSON) stays within it.
 */
export const MAX_CURSOR_LENGTH = 2048;

const CURSOR_VERSION = 1;
/** What a cursor looks like (base64url); anything else is refused before decoding. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;
/** A timestamp key: UTC with microseconds, as `to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` writes it. */
const TIMESTAMP_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BIGINT_KEY = /^(0|[1-9]\d{0,17})$/;

/** The tag of a list's scope written into its cursors. */
function scopeTag(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 16);
}

/** The scope of one list: its name, the tenant, and whatever else decides its rows and their order. */
export function cursorScope(list: string, tenantUuid: string, shape: unknown): string {
  return `${list}\n${tenantUuid}\n${stableJson(shape)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function encodeCursor(scope: string, cursor: Cursor): string {
  const body = {
    v: CURSOR_VERSION,
    s: scopeTag(scope),
    d: cursor.direction === 'after' ? 'a' : 'b',
    k: cursor.key,
  };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The cursor `text` names, checked against the list's scope and key kinds; InvalidCursorError when it is not one. */
export function decodeCursor(scope: string, text: string, kinds: readonly CursorKeyKind[]): Cursor {
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    text.length > MAX_CURSOR_LENGTH ||
    !CURSOR_PATTERN.test(text)
  )
    throw new InvalidCursorError('not a cursor');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('not a cursor');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidCursorError('not a cursor');
  const { v, s, d, k } = body as Record<string, unknown>;
  if (v !== CURSOR_VERSION) throw new InvalidCursorError('unknown version');
  if (s !== scopeTag(scope)) throw new InvalidCursorError('of another list, filter or order');
  if (d !== 'a' && d !== 'b') throw new InvalidCursorError('no direction');
  if (!Array.isArray(k) || k.length !== kinds.length) throw new InvalidCursorError('no position');
  const key = k.map((part: unknown, index) => {
    const kind = kinds[index];
    if (part === null && kind.endsWith('-or-null')) return null;
    if (typeof part !== 'string' || !isKeyOfKind(part, kind.replace(/-or-null$/, '') as CursorValueKind))
      throw new InvalidCursorError('no position');
    return part;
  });
  return { direction: d === 'a' ? 'after' : 'before', key };
}

function isKeyOfKind(part: string, kind: CursorValueKind): boolean {
  switch (kind) {
    case 'text':
      // Any text PostgreSQL can hold: no NUL character.
      return !part.includes('\u0000');
    case 'uuid':
      return UUID_KEY.test(part);
    case 'bigint':
      return BIGINT_KEY.test(part);
    case 'timestamp': {
      if (!TIMESTAMP_KEY.test(part)) return false;
      // A real instant (no 31 February): the milliseconds read back as written.
      const date = new Date(part);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 23) === part.slice(0, 23);
    }
  }
}
