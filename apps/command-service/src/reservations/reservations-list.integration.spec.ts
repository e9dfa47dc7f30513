import { randomUUID } from 'node:crypto';
import { ErrorCode, type ListReservationsPayload, type ReservationPage } from '@cpc/contracts';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import type { DomainError } from '@cpc/errors';
import { createTestDatabase, type TestDatabase, walkCursorPages } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { controlDataSourceOptions } from '../data-source.js';
import { reservationsList } from '../repositories/reservations.repository.js';
import { ReservationsService } from './reservations.service.js';

/**
 * The reservations list on real PostgreSQL: walked by cursor (ties on created_at included, which the list orders by
 * uuid ascending) it gives every reservation once, as the numbered pages do; and a deep page by cursor reads its own
 * rows from the index reservations_tenant_created_idx, not the rows before it (EXPLAIN ANALYZE, analysed statistics).
 */

const DEEP_ROWS = 20_000;
const LIMIT = 20;

let database: TestDatabase;
let dataSource: DataSource;
let service: ReservationsService;
/** A tenant with a short list for the walks, another one, and one with a long list for the plans. */
const tenantA = randomUUID();
const tenantB = randomUUID();
const deepTenant = randomUUID();
const controllerA = randomUUID();

/** `count` reservations of `tenant` on `controller`, the i-th created at `createdAt(i)` (SQL of i). */
function insertReservations(tenant: string, controller: string, count: number, createdAt: string) {
  return dataSource.query(
    `INSERT INTO control.reservations
       (uuid, tenant_uuid, controller_uuid, reservation_id, id_tag, expires_at, status, ended_at,
        reserve_command_uuid, created_at)
     SELECT gen_random_uuid(), $1, $2, i, CASE WHEN i % 2 = 0 THEN 'EVEN' ELSE 'ODD' END,
            now() + interval '1 hour', CASE WHEN i % 3 = 0 THEN 'cancelled' ELSE 'active' END,
            CASE WHEN i % 3 = 0 THEN now() END, gen_random_uuid(), ${createdAt}
       FROM generate_series(1, $3::integer) AS i`,
    [tenant, controller, count],
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource(controlDataSourceOptions(database.url));
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  service = new ReservationsService(dataSource);
  // Seven reservations, four of them created at the same instant (to the microsecond).
  await insertReservations(
    tenantA,
    controllerA,
    7,
    `CASE WHEN i <= 4 THEN '2026-05-01T10:00:00.123456Z'::timestamptz
          ELSE '2026-05-01T10:00:00Z'::timestamptz + i * interval '1 second' END`,
  );
  await insertReservations(tenantB, randomUUID(), 3, `now()`);
  await insertReservations(
    deepTenant,
    randomUUID(),
    DEEP_ROWS,
    `'2026-01-01T00:00:00Z'::timestamptz + i * interval '1 millisecond'`,
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('reading reservations by cursor', () => {
  const list = (request: Partial<ListReservationsPayload>, tenant = tenantA) =>
    service.list(tenant, { page: 1, limit: 50, filter: {}, ...request });
  const uuids = (page: ReservationPage) => page.items.map((item) => item.uuid);

  /** Follows `pagination.cursor[link]` from `start`; every page read by cursor has the cursor style's pagination. */
  const walk = (start: ReservationPage, link: 'next' | 'prev', request: Partial<ListReservationsPayload>) =>
    walkCursorPages(start, link, {
      page: async (cursor) => {
        const page = await list({ ...request, cursor });
        expect(Object.keys(page.pagination).sort()).toEqual(['cursor', 'has_more', 'page_size']);
        expect(page.pagination.page_size).toBe(request.limit);
        return page;
      },
      links: (page) => page.pagination.cursor,
      ids: uuids,
    });

  it.each([1, 2, 3])(
    'walks the list %i at a time forwards and back, each reservation once, as the numbered pages list them',
    async (limit) => {
      const all = uuids(await list({}));
      expect(all).toHaveLength(7);
      const forwards = await walk(await list({ limit }), 'next', { limit });
      expect(forwards.pages.flat()).toEqual(all);
      expect(forwards.pages.every((page) => page.length > 0 && page.length <= limit)).toBe(true);
      expect(forwards.last.pagination.has_more).toBe(false);
      const backwards = await walk(forwards.last, 'prev', { limit });
      expect(backwards.pages.reverse()).toEqual(forwards.pages);
      expect(backwards.last.pagination.cursor?.prev).toBeUndefined();
      // A numbered page's cursors go on from exactly that page.
      const second = await list({ limit, page: 2 });
      const after = await list({ limit, cursor: second.pagination.cursor?.next });
      expect(uuids(after)).toEqual(all.slice(2 * limit, 3 * limit));
      const before = await list({ limit, cursor: second.pagination.cursor?.prev });
      expect(uuids(before)).toEqual(all.slice(0, limit));
    },
  );

  it('orders the reservations created at the same instant by uuid, newest instant first', async () => {
    const { items } = await list({});
    expect(items.map((item) => item.created_at)).toEqual(
      [...items.map((item) => item.created_at)].sort().reverse(),
    );
    const tied = items.filter((item) => item.reservation_id <= 4).map((item) => item.uuid);
    expect(tied).toEqual([...tied].sort());
  });

  it('keeps the filters on every page', async () => {
    for (const filter of [
      { status: 'active' as const },
      { id_tag: 'EVEN' },
      { controller_uuid: controllerA },
    ]) {
      const all = uuids(await list({ filter }));
      const forwards = await walk(await list({ filter, limit: 2 }), 'next', { filter, limit: 2 });
      expect([filter, forwards.pages.flat()]).toEqual([filter, all]);
    }
  });

  it("refuses another tenant's, another filter's and a malformed cursor as a validation error on cursor", async () => {
    const cursor = (await list({ limit: 2 })).pagination.cursor?.next as string;
    const refusals = await Promise.all(
      [
        list({ limit: 2, cursor }, tenantB),
        list({ limit: 2, cursor, filter: { status: 'active' } }),
        list({ limit: 2, cursor: 'not-a-cursor' }),
        list({ limit: 2, cursor: Buffer.from('{"v":1}').toString('base64url') }),
      ].map((attempt) =>
        attempt.then(
          (page) => page,
          (error: DomainError) => [error.code, error.issues],
        ),
      ),
    );
    const refused = [
      ErrorCode.ValidationFailed,
      [expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' })],
    ];
    expect(refusals).toEqual([refused, refused, refused, refused]);
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/**
 * The rows the plan read from control.reservations (returned plus filtered out, times loops), and its nodes: the
 * scans by index name, the others by type.
 */
function readOf(node: PlanNode): { rows: number; nodes: string[] } {
  const own =
    node['Relation Name'] === 'reservations'
      ? (node['Actual Rows'] +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        node['Actual Loops']
      : 0;
  return (node.Plans ?? [])
    .map(readOf)
    .reduce((sum, child) => ({ rows: sum.rows + child.rows, nodes: [...sum.nodes, ...child.nodes] }), {
      rows: own,
      nodes: [node['Index Name'] ?? node['Node Type']],
    });
}

/** A value (text, a number or null: what the list's statements take) as an SQL literal, for EXECUTE. */
function literal(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${(value as string).replace(/'/g, "''")}'`;
}

/** EXPLAIN ANALYZE of the statement as the service sends it (unnamed: planned for its values), in a rolled-back transaction. */
async function measure(query: { text: string; values: unknown[] }) {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('SET LOCAL plan_cache_mode = force_custom_plan');
    await runner.query(`PREPARE measured AS ${query.text}`);
    const [{ 'QUERY PLAN': plans }] = (await runner.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE measured(${query.values.map(literal).join(', ')})`,
    )) as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
    return { ...readOf(plans[0].Plan), returned: plans[0].Plan['Actual Rows'] };
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.query('DEALLOCATE ALL').catch(() => undefined);
    await runner.release();
  }
}

describe('a deep page of a long list', () => {
  const filter = {
    tenantUuid: deepTenant,
    controllerUuid: null,
    plugUuid: null,
    status: null,
    idTag: null,
    reservationId: null,
  };
  /** The cursor of the row `depth` rows into the list: the key of its last row of the numbered page before. */
  let key: { cursorCreated: string; cursorUuid: string };

  beforeAll(async () => {
    await dataSource.query('VACUUM (ANALYZE) control.reservations');
    const depth = DEEP_ROWS - 2 * LIMIT;
    const [row] = await dataSource.query<{ cursor_key_0: string; cursor_key_1: string }[]>(
      reservationsList.page.text,
      reservationsList.page.query({ ...filter, limit: 1, offset: depth }).values,
    );
    key = { cursorCreated: row.cursor_key_0, cursorUuid: row.cursor_key_1 };
  });

  it.each(['after', 'before'] as const)('by cursor (%s) reads its rows from the list index', async (side) => {
    const { rows, nodes, returned } = await measure(
      reservationsList[side].query({ ...filter, ...key, limit: LIMIT + 1 }),
    );
    expect(returned).toBe(LIMIT + 1);
    // Its rows, and the cursor's own row (the index range starts at its created_at, the uuid is checked after).
    expect(rows).toBeLessThanOrEqual(LIMIT + 2);
    // In the index's order from the key: no sort, not even of the rows that tie on created_at.
    expect(nodes).toEqual(['Limit', 'reservations_tenant_created_idx']);
  });

  it('by number reads every row before it (what the cursor saves)', async () => {
    const { rows } = await measure(
      reservationsList.page.query({ ...filter, limit: LIMIT, offset: DEEP_ROWS - 2 * LIMIT }),
    );
    expect(rows).toBeGreaterThan(DEEP_ROWS - 2 * LIMIT);
  });
});
