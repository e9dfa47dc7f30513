import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AssetSort, CursorAssetPage, CursorListAssetsPayload } from '@cpc/contracts';
import { lockWaiters, openSession, walkCursorPages } from '@cpc/testing';
import { runStatement } from '@cpc/database';
import type { QueryRunner } from 'typeorm';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { SensorEntity } from '../entities/index.js';
import { insertIdTokens } from '../id-tokens/id-tokens.repository.js';
import { IdTokensService } from '../id-tokens/id-tokens.service.js';
import { type AssetServices, createAssetServices } from '../testing/asset-services.js';
import { insertAsset, markAssetInsert } from './asset-inserts.repository.js';

/**
 * Cursor walks over the asset lists by created_at while a creation is still being committed: its row is stamped,
 * then its transaction waits (a second session holds what it needs), rows created after it commit first and a page is
 * read. Once it commits, a walk from that page in both directions meets every row of the list exactly once.
 */

jest.setTimeout(60_000);

let services: AssetServices;

beforeAll(async () => {
  services = await createAssetServices();
  tokenService = new IdTokensService(services.dataSource, ASSETS_SERVICE_TUNING);
});
afterAll(() => services?.drop());

type Page = CursorAssetPage<{ uuid: string }>;
type ListRequest = CursorListAssetsPayload<Record<string, never>, 'created_at'>;

/**
 * A creation stamped and not yet committed: the service's, waiting on a lock of the second session until that rolls
 * back, or (where nothing can hold the service's transaction after its insert) the session's own insert through the
 * service's insert path, until the session commits.
 */
interface HeldCreation {
  waits: boolean;
  uuid(): Promise<string>;
}

/** A list under test: what its creations need, a plain creation, and one held open by `session`. */
interface ListSubject {
  name: string;
  prepare(tenant: string): Promise<Record<string, string>>;
  create(tenant: string, parents: Record<string, string>, label: string): Promise<string>;
  createHeld(tenant: string, parents: Record<string, string>, session: QueryRunner): Promise<HeldCreation>;
  list(tenant: string, request: ListRequest): Promise<Page>;
}

/** The service's creation, whose transaction waits on the session. */
function waiting(creating: Promise<{ uuid: string }>): HeldCreation {
  return { waits: true, uuid: async () => (await creating).uuid };
}

let labels = 0;
const unique = (label: string) => `${label}-${++labels}`;

const locations: ListSubject = {
  name: 'locations',
  prepare: async (tenant) => ({
    facilityType: (await services.facilityTypes.create(tenant, { name: unique('Parking') })).uuid,
  }),
  create: async (tenant, _parents, label) => (await services.locations.create(tenant, { name: label })).uuid,
  createHeld: async (tenant, { facilityType }, session) => {
    // The location row is inserted first; its facility-type link then waits for the facility type's row.
    await session.query('SELECT FROM assets.facility_types WHERE uuid = $1 FOR UPDATE', [facilityType]);
    return waiting(services.locations.create(tenant, { name: 'Late', facility_type_uuids: [facilityType] }));
  },
  list: (tenant, request) => services.locations.list(tenant, request),
};

const controllers: ListSubject = {
  name: 'controllers',
  prepare: async (tenant) => ({
    location: (await services.locations.create(tenant, { name: 'Depot' })).uuid,
  }),
  create: async (tenant, { location }, label) =>
    (
      await services.controllers.create(tenant, {
        location_uuid: location,
        name: label,
        ocpp_identity: unique(label),
        security_profile: 0,
      })
    ).uuid,
  createHeld: async (tenant, { location }, session) => {
    // An uncommitted row of the same identity: the creation's insert waits on the unique index.
    const identity = unique('Late');
    await session.query(
      `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
       VALUES ($1, $2, $3, 'Held', $4, 0)`,
      [randomUUID(), tenant, location, identity],
    );
    return waiting(
      services.controllers.create(tenant, {
        location_uuid: location,
        name: 'Late',
        ocpp_identity: identity,
        security_profile: 0,
      }),
    );
  },
  list: (tenant, request) => services.controllers.list(tenant, request),
};

let connectors = 0;
const plugs: ListSubject = {
  name: 'plugs',
  prepare: async (tenant) => {
    const location = (await services.locations.create(tenant, { name: 'Depot' })).uuid;
    const controller = await controllers.create(tenant, { location }, 'CP');
    return { controller };
  },
  create: async (tenant, { controller }, label) =>
    (
      await services.plugs.create(tenant, {
        controller_uuid: controller,
        connector_id: ++connectors,
        name: label,
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
      })
    ).uuid,
  createHeld: async (tenant, { controller }, session) => {
    // An uncommitted plug on the same connector: the creation's insert waits on the unique constraint.
    const connector = ++connectors;
    await session.query(
      `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type,
                                 max_power_kw)
       VALUES ($1, $2, $3, $4, $4, 'iec_62196_t2', 'ac_3_phase', 22)`,
      [randomUUID(), tenant, controller, connector],
    );
    return waiting(
      services.plugs.create(tenant, {
        controller_uuid: controller,
        connector_id: connector,
        name: 'Late',
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
      }),
    );
  },
  list: (tenant, request) => services.plugs.list(tenant, request),
};

const sensors: ListSubject = {
  name: 'sensors',
  prepare: async (tenant) => ({
    location: (await services.locations.create(tenant, { name: 'Depot' })).uuid,
  }),
  create: async (tenant, { location }, label) =>
    (await services.sensors.create(tenant, { location_uuid: location, kind: 'temperature', name: label }))
      .uuid,
  createHeld: async (tenant, { location }, session) => {
    // Its insert is the last statement of the service's transaction: the session inserts as the service does.
    const sensor = session.manager.create(SensorEntity, {
      uuid: randomUUID(),
      tenantUuid: tenant,
      locationUuid: location,
      controllerUuid: null,
      kind: 'temperature',
      name: 'Late',
      serialNumber: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await insertAsset(session.manager, SensorEntity, sensor);
    return { waits: false, uuid: () => Promise.resolve(sensor.uuid) };
  },
  list: (tenant, request) => services.sensors.list(tenant, request),
};

let tokenService: IdTokensService;
let tokens = 0;
const idTokens: ListSubject = {
  name: 'id tokens',
  prepare: () => Promise.resolve({}),
  create: async (tenant, _parents, label) =>
    (await tokenService.create(tenant, { id_token: unique(label), type: 'iso14443' })).uuid,
  createHeld: async (tenant, _parents, session) => {
    // A tenant's token writes queue on its revision (a later one would wait for this one): the session inserts as
    // the service does, without the revision.
    const uuid = randomUUID();
    await markAssetInsert(session.manager, 'assets.id_tokens');
    await runStatement(session.manager, insertIdTokens, {
      tenantUuid: tenant,
      revision: '0',
      tokens: JSON.stringify([
        {
          uuid,
          id_token: `LATE-${++tokens}`,
          type: 'iso14443',
          status: 'accepted',
          expires_at: null,
          group_uuid: null,
          contract_reference: null,
          allowed_location_uuids: [],
        },
      ]),
    });
    return { waits: false, uuid: () => Promise.resolve(uuid) };
  },
  list: (tenant, request) => tokenService.list(tenant, request),
};

const NEWEST_FIRST: AssetSort<'created_at'>[] = [{ field: 'created_at', direction: 'desc' }];
const OLDEST_FIRST: AssetSort<'created_at'>[] = [{ field: 'created_at', direction: 'asc' }];

/**
 * Two rows, then one creation held open while a third row is created and the first page is read; then the rest of
 * the walk from that page, both ways, once every creation committed. Answers the walk's rows and the whole list.
 */
async function walkAroundHeldCreation(
  subject: ListSubject,
  orderBy: AssetSort<'created_at'>[],
  limit: number,
): Promise<{ older: string[]; firstPage: Page; walked: string[]; all: string[] }> {
  const tenant = randomUUID();
  const parents = await subject.prepare(tenant);
  const request = (cursor?: string): ListRequest => ({ page: 1, limit, orderBy, filter: {}, cursor });
  const older: string[] = [];
  for (const label of ['A', 'B']) older.push(await subject.create(tenant, parents, label));
  const session = await openSession(services.dataSource);
  let late: HeldCreation | undefined;
  let firstPage: Page;
  try {
    late = await subject.createHeld(tenant, parents, session);
    if (late.waits) await lockWaiters(services.dataSource, 1);
    await subject.create(tenant, parents, 'C');
    firstPage = await subject.list(tenant, request());
  } finally {
    await (late?.waits === false ? session.commitTransaction() : session.rollbackTransaction());
    await session.release();
  }
  await late.uuid();
  const reader = {
    page: (cursor: string) => subject.list(tenant, request(cursor)),
    links: (page: Page) => ('cursor' in page.pagination ? page.pagination.cursor : undefined),
    ids: (page: Page) => page.items.map((item) => item.uuid),
  };
  const before = await walkCursorPages(firstPage, 'prev', reader);
  const after = await walkCursorPages(firstPage, 'next', reader);
  const walked = [...before.pages.slice(1).reverse().flat(), ...after.pages.flat()];
  const whole = await subject.list(tenant, { page: 1, limit: 50, orderBy, filter: {} });
  return { older, firstPage, walked, all: whole.items.map((item) => item.uuid) };
}

// created_at is stamped before the row is readable (at its transaction's commit), so a page could pass the key of a
// row still being committed, and a walk from it never met that row. A page ends before the table's visibility horizon
// (ASSET_LIST_HORIZONS: the start of the oldest marked insert in flight): short, its cursors lead on to the rest.
describe.each([locations, controllers, plugs, sensors, idTokens])('a walk over the $name', (subject) => {
  it('newest first meets a row whose creation commits after the first page was read', async () => {
    const { older, firstPage, walked, all } = await walkAroundHeldCreation(subject, NEWEST_FIRST, 2);
    // Only the rows stamped before the insert in flight; its prev cursor leads to those held back.
    expect(firstPage.items.map((item) => item.uuid)).toEqual([...older].reverse());
    expect(firstPage.pagination).toMatchObject({ cursor: { prev: expect.any(String) } });
    expect(all).toHaveLength(4);
    expect(walked).toEqual(all);
  });

  it('oldest first meets a row whose creation commits after the first page was read', async () => {
    const { older, firstPage, walked, all } = await walkAroundHeldCreation(subject, OLDEST_FIRST, 3);
    expect(firstPage.items.map((item) => item.uuid)).toEqual(older);
    expect(firstPage.pagination).toMatchObject({ has_more: true, cursor: { next: expect.any(String) } });
    expect(all).toHaveLength(4);
    expect(walked).toEqual(all);
  });
});
