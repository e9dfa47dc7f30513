import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AssetSort, CursorAssetPage, PlugSortField } from '@cpc/contracts';
import { migrateServiceSchema } from '@cpc/database';
import { DomainError } from '@cpc/errors';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import { type DataSource, type ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { createAssetsDataSource } from '../data-source.js';
import {
  ControllerEntity,
  IdTokenEntity,
  LocationEntity,
  PlugEntity,
  SensorEntity,
} from '../entities/index.js';
import { ASSET_SORT_COLUMNS, listPage, type SortField } from './asset-listing.js';

/**
 * listPage against real PostgreSQL: a walk by cursor, forwards and back, in every order a list accepts (NULL names,
 * ties in every sort column) meets every row once, in the order of the numbered pages; and a deep page by cursor of
 * the default order reads only its own rows from the newest-first index (EXPLAIN ANALYZE).
 */

jest.setTimeout(120_000);

const PLUG_SORT: Record<PlugSortField, SortField> = {
  ...ASSET_SORT_COLUMNS,
  name: { ...ASSET_SORT_COLUMNS.name, nullable: true },
  connector_id: { column: 'connector_id', type: 'bigint' },
};
const LIST = 'assets.plug.list.v1';

let database: TestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
const otherTenant = randomUUID();
const bulkTenant = randomUUID();

async function insertLocation(tenantUuid: string, name: string, createdAt = 'now()'): Promise<string> {
  const uuid = randomUUID();
  await dataSource.query(
    `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, publish, modification_date, created_at, updated_at)
     VALUES ($1, $2, $3, 'active', false, current_date, ${createdAt}, now())`,
    [uuid, tenantUuid, name],
  );
  return uuid;
}

async function insertControllers(tenantUuid: string, locationUuid: string, count: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile,
                                     credentials_version, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, 'C' || i, $3 || i, 1, 1, now() - i * interval '1 second', now()
       FROM generate_series(1, $4::int) AS i`,
    [tenantUuid, locationUuid, `CP-${tenantUuid.slice(0, 8)}-`, count],
  );
}

function plugQuery(tenantUuid: string) {
  return dataSource
    .getRepository(PlugEntity)
    .createQueryBuilder('plug')
    .where('plug.tenantUuid = :tenantUuid', { tenantUuid });
}

function plugPage(
  request: { page?: number; limit: number; orderBy: AssetSort<PlugSortField>[]; cursor?: string },
  tenantUuid = tenant,
): Promise<CursorAssetPage<string>> {
  return listPage(
    plugQuery(tenantUuid),
    { page: 1, filter: {}, ...request },
    PLUG_SORT,
    (rows) => rows.map((row) => row.uuid),
    { list: LIST, tenantUuid, table: 'assets.plugs' },
  );
}

/** The tenant's plugs in `orderBy` then uuid, as PostgreSQL sorts them (its own NULL placement). */
async function expectedOrder(orderBy: AssetSort<PlugSortField>[]): Promise<string[]> {
  const sort = orderBy.length > 0 ? orderBy : [{ field: 'created_at', direction: 'desc' }];
  const clause = sort.map((entry) => `${entry.field} ${entry.direction}`).join(', ');
  const rows: { uuid: string }[] = await dataSource.query(
    `SELECT uuid FROM assets.plugs WHERE tenant_uuid = $1 ORDER BY ${clause}, uuid ASC`,
    [tenant],
  );
  return rows.map((row) => row.uuid);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createAssetsDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  // 60 plugs: names repeat or are missing, connector ids and creation times repeat (to the microsecond).
  for (const tenantUuid of [tenant, otherTenant]) {
    const location = await insertLocation(tenantUuid, 'Depot');
    await insertControllers(tenantUuid, location, 12);
  }
  await dataSource.query(
    `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, name, standard, power_type,
                               max_power_kw, status, created_at, updated_at)
     SELECT gen_random_uuid(), c.tenant_uuid, c.uuid, n, 1,
            (ARRAY['Bay', 'bay', NULL, 'Äpfel', 'Zone 7', NULL, 'a'])[1 + (abs(hashtext(c.uuid::text || n)) % 7)],
            'IEC_62196_T2', 'ac_3_phase', 22, 'unknown',
            timestamptz '2026-11-26 10:00:00.123456Z' + (abs(hashtext(n || c.uuid::text)) % 4) * interval '1 microsecond',
            now()
       FROM assets.controllers c, generate_series(1, 5) AS n`,
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const ORDERS: AssetSort<PlugSortField>[][] = [
  [],
  [{ field: 'created_at', direction: 'asc' }],
  [{ field: 'name', direction: 'asc' }],
  [{ field: 'name', direction: 'desc' }],
  [
    { field: 'connector_id', direction: 'asc' },
    { field: 'created_at', direction: 'desc' },
  ],
  [
    { field: 'connector_id', direction: 'desc' },
    { field: 'name', direction: 'asc' },
  ],
  [
    { field: 'name', direction: 'desc' },
    { field: 'connector_id', direction: 'asc' },
    { field: 'name', direction: 'asc' },
  ],
];

describe('a walk by cursor', () => {
  it.each(ORDERS.map((orderBy) => [JSON.stringify(orderBy), orderBy] as const))(
    'meets every row once in the list order, forwards and back (order_by %s)',
    async (_label, orderBy) => {
      const expected = await expectedOrder(orderBy);
      expect(expected).toHaveLength(60);
      const limit = 7;
      const first = await plugPage({ limit, orderBy });
      expect(first.items).toEqual(expected.slice(0, limit));
      expect(first.pagination.cursor?.prev).toBeUndefined();

      const pages = [first.items];
      let page = first;
      while (page.pagination.cursor?.next !== undefined) {
        page = await plugPage({ limit, orderBy, cursor: page.pagination.cursor.next });
        expect(page.pagination).not.toHaveProperty('page');
        pages.push(page.items);
      }
      expect(pages.flat()).toEqual(expected);
      expect(pages.slice(0, -1).every((items) => items.length === limit)).toBe(true);
      expect(page.pagination.has_more).toBe(false);

      const back = [page.items];
      while (page.pagination.cursor?.prev !== undefined) {
        page = await plugPage({ limit, orderBy, cursor: page.pagination.cursor.prev });
        back.unshift(page.items);
      }
      expect(back.flat()).toEqual(expected);
      expect(back[0]).toEqual(expected.slice(0, limit));

      // A numbered page's cursors go on from it.
      const third = await plugPage({ page: 3, limit, orderBy });
      expect(third.items).toEqual(expected.slice(14, 21));
      const fourth = await plugPage({ limit, orderBy, cursor: third.pagination.cursor?.next });
      const second = await plugPage({ limit, orderBy, cursor: third.pagination.cursor?.prev });
      expect(fourth.items).toEqual(expected.slice(21, 28));
      expect(second.items).toEqual(expected.slice(7, 14));
    },
  );

  it("refuses a cursor of another order, another tenant's list, or garbage, as invalid_cursor", async () => {
    const first = await plugPage({ limit: 5, orderBy: [{ field: 'name', direction: 'asc' }] });
    const next = first.pagination.cursor?.next;
    const refused = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).issues).toEqual([
        expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' }),
      ]);
    };
    await refused(plugPage({ limit: 5, orderBy: [{ field: 'name', direction: 'desc' }], cursor: next }));
    await refused(
      plugPage({ limit: 5, orderBy: [{ field: 'name', direction: 'asc' }], cursor: next }, otherTenant),
    );
    await refused(plugPage({ limit: 5, orderBy: [], cursor: 'bm90LWEtY3Vyc29y' }));
  });
});

describe('a deep page by cursor of the default order', () => {
  const ROWS = 3000;
  const LIMIT = 20;

  /** The statements listPage runs (it runs each through getRawAndEntities, which the spy calls through to). */
  function capturing(): { statements: () => [string, unknown[]][]; restore: () => void } {
    const spy = jest.spyOn(SelectQueryBuilder.prototype, 'getRawAndEntities');
    return {
      statements: () =>
        spy.mock.contexts.map((query) =>
          (query as SelectQueryBuilder<ObjectLiteral>).getQueryAndParameters(),
        ),
      restore: () => spy.mockRestore(),
    };
  }

  beforeAll(async () => {
    const location = await insertLocation(bulkTenant, 'Bulk');
    await dataSource.query(
      `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, publish, modification_date, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'L' || i, 'active', false, current_date, now() - i * interval '1 second', now()
         FROM generate_series(1, $2::int) AS i`,
      [bulkTenant, ROWS],
    );
    await insertControllers(bulkTenant, location, ROWS);
    await dataSource.query(
      `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, name, standard, power_type,
                                 max_power_kw, status, created_at, updated_at)
       SELECT gen_random_uuid(), tenant_uuid, uuid, 1, 1, name, 'IEC_62196_T2', 'dc', 50, 'unknown', created_at, now()
         FROM assets.controllers WHERE tenant_uuid = $1`,
      [bulkTenant],
    );
    await dataSource.query(
      `INSERT INTO assets.sensors (uuid, tenant_uuid, location_uuid, kind, name, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, 'temperature', 'S' || i, now() - i * interval '1 second', now()
         FROM generate_series(1, $3::int) AS i`,
      [bulkTenant, location, ROWS],
    );
    await dataSource.query(
      `INSERT INTO assets.id_tokens (uuid, tenant_uuid, id_token, type, status, revision, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'TAG' || i, 'ISO14443', 'accepted', 1, now() - i * interval '1 second', now()
         FROM generate_series(1, $2::int) AS i`,
      [bulkTenant, ROWS],
    );
    for (const table of ['locations', 'controllers', 'plugs', 'sensors', 'id_tokens'])
      await dataSource.query(`VACUUM (ANALYZE) assets.${table}`);
  });

  const LISTS = [
    {
      entity: LocationEntity,
      alias: 'location',
      index: 'locations_tenant_newest_idx',
      table: 'assets.locations',
    },
    {
      entity: ControllerEntity,
      alias: 'controller',
      index: 'controllers_tenant_newest_idx',
      table: 'assets.controllers',
    },
    { entity: PlugEntity, alias: 'plug', index: 'plugs_tenant_newest_idx', table: 'assets.plugs' },
    { entity: SensorEntity, alias: 'sensor', index: 'sensors_tenant_newest_idx', table: 'assets.sensors' },
    {
      entity: IdTokenEntity,
      alias: 'token',
      index: 'id_tokens_tenant_created_idx',
      table: 'assets.id_tokens',
    },
  ] as const;

  it.each(LISTS.map((list) => [list.alias, list] as const))(
    'reads only its own rows from the index (%s)',
    async (_label, { entity, alias, index, table }) => {
      const page = (request: { page?: number; cursor?: string }) =>
        listPage(
          dataSource
            .getRepository<ObjectLiteral>(entity)
            .createQueryBuilder(alias)
            .where(`${alias}.tenantUuid = :tenantUuid`, { tenantUuid: bulkTenant }),
          { page: 1, limit: LIMIT, orderBy: [], filter: {}, ...request },
          ASSET_SORT_COLUMNS,
          (rows) => rows.map((row) => row.uuid as string),
          { list: `list-${alias}`, tenantUuid: bulkTenant, table },
        );
      const numbered = await page({ page: 120 });
      const capture = capturing();
      let deep: CursorAssetPage<string>;
      let statements: [string, unknown[]][];
      try {
        deep = await page({ cursor: numbered.pagination.cursor?.next });
        statements = capture.statements();
      } finally {
        capture.restore();
      }
      expect(deep.items).toEqual((await page({ page: 121 })).items);
      expect(statements).toHaveLength(1);
      const [sql, parameters] = statements[0];
      expect(sql).not.toMatch(/OFFSET|count\(/i);
      const [{ 'QUERY PLAN': plan }] = await dataSource.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        parameters,
      );
      const nodes = flatten(plan[0].Plan);
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      const scans = nodes.filter((node) => node['Relation Name'] !== undefined);
      expect(scans.map((node) => node['Index Name'])).toEqual([index]);
      // The page and the one row that says more follow, plus the cursor's own row (a tie of its time).
      const read = scans[0]['Actual Rows'] + (scans[0]['Rows Removed by Filter'] ?? 0);
      expect(read).toBeLessThanOrEqual(LIMIT + 2);
    },
  );
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
