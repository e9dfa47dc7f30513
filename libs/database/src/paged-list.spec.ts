import { decodeCursor, encodeCursor, type OrderedKeysetColumn } from '@cpc/pagination';
import type { DataSource } from 'typeorm';
import type { PlainQuery } from './pool-query.js';
import { pagedListStatements, type PagedListStatements, runPagedList } from './paged-list.js';
import { type VisibilityHorizon, visibilityHorizonStatement } from './visibility-horizon.js';

interface Row {
  id: string;
}

const HORIZON = visibilityHorizonStatement('spec.rows', 'transaction');
const SCOPE = 'spec.rows\ntenant\n{}';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000000Z`;
/** A listed row stamped at `second`. */
const row = (second: number) => ({ id: `r${second}`, cursor_key_0: at(second), cursor_key_1: uuid(second) });

function list(order: 'ASC' | 'DESC'): PagedListStatements<{ tenant: string }, Row> {
  const key: OrderedKeysetColumn[] = [
    { column: 'r.created_at', parameter: 'cursorAt', type: 'timestamptz', order },
    { column: 'r.uuid', parameter: 'cursorUuid', type: 'uuid', order },
  ];
  return pagedListStatements<{ tenant: string }, Row>({
    name: `spec.list:${order}`,
    select: 'r.id',
    from: 'FROM spec.rows r WHERE r.tenant = :tenant',
    filterParameters: ['tenant'],
    key,
    horizon: HORIZON,
  });
}

/**
 * A pool that answers each statement of `statements` (by its text) with `answers`, and records what ran, in order.
 * The horizon statement is answered by `horizon`.
 */
function fakePool(
  statements: PagedListStatements<{ tenant: string }, Row>,
  answers: { page?: unknown[]; count?: number; heldBack?: boolean; seek?: unknown[] },
  horizon: VisibilityHorizon,
) {
  const ran: { name: string; values: unknown[] }[] = [];
  const named = new Map<string, string>([
    [HORIZON.text, 'horizon'],
    [statements.page.text, 'page'],
    [statements.count.text, 'count'],
    [statements.after.text, 'after'],
    [statements.before.text, 'before'],
  ]);
  if (statements.horizon?.newestFirst) {
    named.set(statements.horizon.newestFirst.page.text, 'page:before-horizon');
    named.set(statements.horizon.newestFirst.heldBack.text, 'held-back');
  }
  const query = (plain: PlainQuery) => {
    const name = named.get(plain.text) ?? 'unknown';
    ran.push({ name, values: plain.values });
    const rows: Record<string, unknown[]> = {
      horizon: [horizon],
      page: answers.page ?? [],
      'page:before-horizon': answers.page ?? [],
      count: [{ total: answers.count ?? 0 }],
      'held-back': [{ held_back: answers.heldBack ?? false }],
      after: answers.seek ?? [],
      before: answers.seek ?? [],
    };
    return Promise.resolve({ rows: rows[name] ?? [] });
  };
  return { runner: { driver: { master: { query } } } as unknown as DataSource, ran };
}

const IDLE: VisibilityHorizon = { at: at(30), held: false };
const HELD: VisibilityHorizon = { at: at(30), held: true };
const keyOf = (cursor: string | undefined) => cursor && decodeCursor(SCOPE, cursor, ['timestamp', 'uuid']);

describe('the paged-list statements with a visibility horizon', () => {
  it('bound a newest-first numbered page below the horizon, and probe the rows held back above it', () => {
    const statements = list('DESC');
    expect(statements.horizon?.read).toBe(HORIZON);
    const newestFirst = statements.horizon?.newestFirst;
    expect(newestFirst?.page.text).toContain('AND r.created_at < $2::timestamptz');
    expect(newestFirst?.heldBack.text).toContain('AND r.created_at >= $2::timestamptz) AS held_back');
    expect(statements.all).toHaveLength(6);
    // Oldest first a numbered page reads one row more and cuts it itself: no statements of its own.
    expect(list('ASC').horizon).toEqual({ read: HORIZON });
  });

  it('bound only a list sorted by a time first', () => {
    expect(() =>
      pagedListStatements({
        name: 'spec.by-id',
        select: 'r.id',
        from: 'FROM spec.rows r WHERE true',
        filterParameters: [],
        key: [{ column: 'r.uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' }],
        horizon: HORIZON,
      }),
    ).toThrow('a horizon bounds a list sorted by a time first');
  });
});

describe('runPagedList with a visibility horizon', () => {
  const request = (cursor?: string) => ({ page: 1, limit: 2, cursor });

  it('reads a cursor page towards older rows without it', async () => {
    const statements = list('DESC');
    const cursor = encodeCursor(SCOPE, { direction: 'after', key: [at(40), uuid(40)] });
    const { runner, ran } = fakePool(statements, { seek: [row(35), row(31), row(20)] }, HELD);
    const { rows, pagination } = await runPagedList(
      runner,
      statements,
      { tenant: 't' },
      request(cursor),
      SCOPE,
    );
    expect(ran.map((each) => each.name)).toEqual(['after']);
    // Every row below the cursor of a page cut at its own horizon was readable: nothing is cut here.
    expect(rows).toEqual([{ id: 'r35' }, { id: 'r31' }]);
    expect(pagination).toMatchObject({ has_more: true });
  });

  it('ends a cursor page towards newer rows before the horizon, and keeps its link when it is empty', async () => {
    const statements = list('DESC');
    const cursor = encodeCursor(SCOPE, { direction: 'before', key: [at(20), uuid(20)] });
    // Read backwards (oldest first from the cursor): 25 is before the horizon, 31 is not.
    const cut = fakePool(statements, { seek: [row(25), row(31), row(32)] }, HELD);
    const page = await runPagedList(cut.runner, statements, { tenant: 't' }, request(cursor), SCOPE);
    expect(cut.ran.map((each) => each.name)).toEqual(['horizon', 'before']);
    expect(page.rows).toEqual([{ id: 'r25' }]);
    expect(keyOf(page.pagination.cursor.prev)).toEqual({ direction: 'before', key: [at(25), uuid(25)] });

    const empty = fakePool(statements, { seek: [row(31)] }, HELD);
    const again = await runPagedList(empty.runner, statements, { tenant: 't' }, request(cursor), SCOPE);
    expect(again.rows).toEqual([]);
    expect(again.pagination.cursor.prev).toBe(cursor);
  });

  it('reads a newest-first numbered page below the horizon, with prev while rows above it are readable', async () => {
    const statements = list('DESC');
    const held = fakePool(statements, { page: [row(25), row(20)], count: 5, heldBack: true }, HELD);
    const page = await runPagedList(held.runner, statements, { tenant: 't' }, request(), SCOPE);
    expect(held.ran.map((each) => each.name).sort()).toEqual([
      'count',
      'held-back',
      'horizon',
      'page:before-horizon',
    ]);
    expect(held.ran.find((each) => each.name === 'page:before-horizon')?.values).toEqual(['t', at(30), 2, 0]);
    expect(page.rows).toEqual([{ id: 'r25' }, { id: 'r20' }]);
    expect(keyOf(page.pagination.cursor.prev)).toEqual({ direction: 'before', key: [at(25), uuid(25)] });

    // No insert in flight: no probe, and page 1 has no prev.
    const idle = fakePool(statements, { page: [row(25), row(20)], count: 2 }, IDLE);
    const plain = await runPagedList(idle.runner, statements, { tenant: 't' }, request(), SCOPE);
    expect(idle.ran.map((each) => each.name)).not.toContain('held-back');
    expect(plain.pagination.cursor).toEqual({});
  });

  it('leads an empty first page, every row held back, to them from the oldest key', async () => {
    const newest = list('DESC');
    const held = fakePool(newest, { page: [], count: 1, heldBack: true }, HELD);
    const page = await runPagedList(held.runner, newest, { tenant: 't' }, request(), SCOPE);
    expect(page.rows).toEqual([]);
    expect(keyOf(page.pagination.cursor.prev)).toEqual({
      direction: 'before',
      key: ['0001-01-01T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'],
    });

    const oldestFirst = list('ASC');
    const cut = fakePool(oldestFirst, { page: [row(31)], count: 1 }, HELD);
    const first = await runPagedList(cut.runner, oldestFirst, { tenant: 't' }, request(), SCOPE);
    expect(first.rows).toEqual([]);
    expect(first.pagination).toMatchObject({ has_more: true });
    expect(keyOf(first.pagination.cursor.next)).toEqual({
      direction: 'after',
      key: ['0001-01-01T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'],
    });
  });

  it('cuts an oldest-first numbered page at the horizon, reading one row more, and keeps next', async () => {
    const statements = list('ASC');
    const { runner, ran } = fakePool(statements, { page: [row(20), row(31), row(32)], count: 3 }, HELD);
    const page = await runPagedList(runner, statements, { tenant: 't' }, request(), SCOPE);
    expect(ran.find((each) => each.name === 'page')?.values).toEqual(['t', 3, 0]);
    expect(page.rows).toEqual([{ id: 'r20' }]);
    expect(page.pagination).toMatchObject({ has_more: true, total_pages: 2 });
    expect(keyOf(page.pagination.cursor.next)).toEqual({ direction: 'after', key: [at(20), uuid(20)] });
  });
});
