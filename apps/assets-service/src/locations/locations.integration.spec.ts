import 'reflect-metadata';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ControllerView } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { type AssetServices, createAssetServices, issueOf } from '../testing/asset-services.js';

/**
 * LocationsService and FacilityTypesService against real PostgreSQL: tenancy of every read and write, facility types
 * of the tenant's catalogue only, no half-written update, and deletes racing controller creation (interleaving forced
 * with row locks of a second session).
 */

jest.setTimeout(60_000);

let services: AssetServices;
let tenant: string;
const otherTenant = randomUUID();
let identities = 0;

beforeAll(async () => {
  services = await createAssetServices();
});
afterAll(() => services?.drop());
beforeEach(() => {
  tenant = randomUUID();
});

const list = { page: 1, limit: 50, orderBy: [] };

function controllerAt(locationUuid: string, identity = `LOC-${++identities}`): Promise<ControllerView> {
  return services.controllers.create(tenant, {
    location_uuid: locationUuid,
    name: identity,
    ocpp_identity: identity,
    security_profile: 0,
  });
}

async function rowCount(sql: string, values: unknown[]): Promise<number> {
  const [{ count }] = await services.dataSource.query<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM ${sql}`,
    values,
  );
  return count;
}

describe('create and read', () => {
  it('answers every field, null when never recorded, with the facility types by name', async () => {
    const shop = await services.facilityTypes.create(tenant, { name: 'Shop' });
    const parking = await services.facilityTypes.create(tenant, { name: 'Parking' });
    const created = await services.locations.create(tenant, {
      name: 'Depot',
      height: '12.5',
      latitude: '52.52000000',
      // Upper case and a repeat: one link.
      facility_type_uuids: [shop.uuid.toUpperCase(), shop.uuid, parking.uuid],
    });
    expect(created).toMatchObject({
      name: 'Depot',
      status: 'active',
      publish: false,
      height: '12.50',
      latitude: '52.52000000',
      street: null,
      contract_id: null,
      controllers: [],
      charge_point_count: 0,
      facility_types: [
        { uuid: parking.uuid, name: 'Parking' },
        { uuid: shop.uuid, name: 'Shop' },
      ],
    });
    expect(await services.locations.get(tenant, created.uuid.toUpperCase())).toEqual(created);
  });

  it("refuses another tenant's facility type and writes no location", async () => {
    const foreign = await services.facilityTypes.create(otherTenant, { name: `Foreign ${randomUUID()}` });
    const { error } = await outcome(
      services.locations.create(tenant, { name: 'Depot', facility_type_uuids: [foreign.uuid] }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'facility_types', errorKey: 'not_found' });
    expect(await rowCount('assets.locations WHERE tenant_uuid = $1', [tenant])).toBe(0);
  });

  it('counts one charge point per EVSE of its controllers and lists them oldest first', async () => {
    const location = await services.locations.create(tenant, { name: 'Depot' });
    const first = await controllerAt(location.uuid);
    const second = await controllerAt(location.uuid);
    const plug = { standard: 'iec_62196_t2' as const, power_type: 'ac_3_phase' as const, max_power_kw: 22 };
    await services.plugs.create(tenant, {
      ...plug,
      controller_uuid: first.uuid,
      connector_id: 1,
      evse_id: 1,
    });
    await services.plugs.create(tenant, {
      ...plug,
      controller_uuid: first.uuid,
      connector_id: 2,
      evse_id: 1,
    });
    await services.plugs.create(tenant, { ...plug, controller_uuid: second.uuid, connector_id: 1 });
    const view = await services.locations.get(tenant, location.uuid);
    expect(view.charge_point_count).toBe(2);
    expect(view.controllers).toEqual([{ controller_uuid: first.uuid }, { controller_uuid: second.uuid }]);
    const page = await services.locations.list(tenant, { ...list, filter: {} });
    expect(page.items).toEqual([view]);
  });
});

describe('tenancy', () => {
  it("answers 404 to another tenant's read, update and delete, and changes nothing", async () => {
    const location = await services.locations.create(tenant, { name: 'Depot' });
    await expect(services.locations.get(otherTenant, location.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      services.locations.update(otherTenant, location.uuid, { name: 'Taken over' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.locations.delete(otherTenant, location.uuid)).rejects.toBeInstanceOf(NotFoundError);
    expect(await services.locations.get(tenant, location.uuid)).toEqual(location);
    expect((await services.locations.list(otherTenant, { ...list, filter: {} })).items).not.toContainEqual(
      expect.objectContaining({ uuid: location.uuid }),
    );
  });

  it("filters by a facility type only among the tenant's own links", async () => {
    const type = await services.facilityTypes.create(tenant, { name: 'Shop' });
    const location = await services.locations.create(tenant, {
      name: 'Depot',
      facility_type_uuids: [type.uuid],
    });
    await services.locations.create(tenant, { name: 'Bare' });
    const mine = await services.locations.list(tenant, {
      ...list,
      filter: { facility_type_uuid: type.uuid.toUpperCase() },
    });
    expect(mine.items.map((item) => item.uuid)).toEqual([location.uuid]);
    const theirs = await services.locations.list(otherTenant, {
      ...list,
      filter: { facility_type_uuid: type.uuid },
    });
    expect(theirs.items).toEqual([]);
  });
});

describe('update', () => {
  it('replaces the facility types, and an empty list clears them', async () => {
    const shop = await services.facilityTypes.create(tenant, { name: 'Shop' });
    const wc = await services.facilityTypes.create(tenant, { name: 'WC' });
    const location = await services.locations.create(tenant, {
      name: 'Depot',
      facility_type_uuids: [shop.uuid],
    });
    const replaced = await services.locations.update(tenant, location.uuid, {
      facility_type_uuids: [wc.uuid],
    });
    expect(replaced.facility_types).toEqual([{ uuid: wc.uuid, name: 'WC' }]);
    const cleared = await services.locations.update(tenant, location.uuid, { facility_type_uuids: [] });
    expect(cleared.facility_types).toEqual([]);
  });

  it('with an unknown facility type changes none of the other fields either', async () => {
    const shop = await services.facilityTypes.create(tenant, { name: 'Shop' });
    const foreign = await services.facilityTypes.create(otherTenant, { name: `Foreign ${randomUUID()}` });
    const location = await services.locations.create(tenant, {
      name: 'Depot',
      facility_type_uuids: [shop.uuid],
    });
    const { error } = await outcome(
      services.locations.update(tenant, location.uuid, {
        name: 'Renamed',
        city: 'Berlin',
        facility_type_uuids: [foreign.uuid],
      }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'facility_types', errorKey: 'not_found' });
    expect(await services.locations.get(tenant, location.uuid)).toEqual(location);
  });

  it('clears a field set to null and leaves the unsent ones', async () => {
    const location = await services.locations.create(tenant, {
      name: 'Depot',
      city: 'Berlin',
      street: 'Main',
    });
    const updated = await services.locations.update(tenant, location.uuid, { city: null });
    expect(updated).toMatchObject({ name: 'Depot', city: null, street: 'Main' });
  });
});

describe('delete', () => {
  it('is refused with has_dependents while a controller is there, and works once it moved', async () => {
    const location = await services.locations.create(tenant, { name: 'Depot' });
    const elsewhere = await services.locations.create(tenant, { name: 'Elsewhere' });
    const controller = await controllerAt(location.uuid);
    const { error } = await outcome(services.locations.delete(tenant, location.uuid));
    expect(issueOf(error)).toMatchObject({ parameter: 'uuid', errorKey: 'has_dependents' });
    await services.controllers.update(tenant, controller.uuid, { location_uuid: elsewhere.uuid });
    await services.locations.delete(tenant, location.uuid.toUpperCase());
    await expect(services.locations.get(tenant, location.uuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('takes its own sensors and facility-type links with it, not the facility types', async () => {
    const type = await services.facilityTypes.create(tenant, { name: 'Shop' });
    const location = await services.locations.create(tenant, {
      name: 'Depot',
      facility_type_uuids: [type.uuid],
    });
    const sensor = await services.sensors.create(tenant, {
      location_uuid: location.uuid,
      kind: 'temperature',
      name: 'T',
    });
    await services.locations.delete(tenant, location.uuid);
    await expect(services.sensors.get(tenant, sensor.uuid)).rejects.toBeInstanceOf(NotFoundError);
    expect(await rowCount('assets.location_facility_types WHERE location_uuid = $1', [location.uuid])).toBe(
      0,
    );
    expect((await services.facilityTypes.list(tenant, { ...list, filter: {} })).items).toHaveLength(1);
  });

  it('waits for a controller being created at the location, then refuses with has_dependents', async () => {
    const location = await services.locations.create(tenant, { name: 'Depot' });
    const other = await services.locations.create(tenant, { name: 'Other' });
    // An uncommitted controller with the identity stops the create at its insert, after it locked the location.
    const session = await openSession(services.dataSource);
    let creating: Promise<{ value?: ControllerView; error?: unknown }>;
    let deleting: Promise<{ value?: void; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
         VALUES ($1, $2, $3, 'Held', 'RACE-DELETE', 0)`,
        [randomUUID(), tenant, other.uuid],
      );
      creating = outcome(controllerAt(location.uuid, 'race-delete'));
      await lockWaiters(services.dataSource, 1);
      deleting = outcome(services.locations.delete(tenant, location.uuid));
      await lockWaiters(services.dataSource, 2);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }
    const created = await creating;
    expect(created.error).toBeUndefined();
    expect(issueOf((await deleting).error)).toMatchObject({ errorKey: 'has_dependents' });
    expect(created.value?.location_uuid).toBe(location.uuid);
    expect((await services.locations.get(tenant, location.uuid)).controllers).toEqual([
      { controller_uuid: created.value?.uuid },
    ]);
  });

  it('fails a controller created meanwhile at it with 422 location_uuid, leaving no orphan', async () => {
    const location = await services.locations.create(tenant, { name: 'Depot' });
    const sensor = await services.sensors.create(tenant, {
      location_uuid: location.uuid,
      kind: 'door',
      name: 'D',
    });
    // The held sensor stops the delete at its cascade, after it locked the location and found no controller.
    const session = await openSession(services.dataSource);
    let deleting: Promise<{ value?: void; error?: unknown }>;
    let creating: Promise<{ value?: ControllerView; error?: unknown }>;
    try {
      await session.query('SELECT 1 FROM assets.sensors WHERE uuid = $1 FOR UPDATE', [sensor.uuid]);
      deleting = outcome(services.locations.delete(tenant, location.uuid));
      await lockWaiters(services.dataSource, 1);
      creating = outcome(controllerAt(location.uuid));
      await lockWaiters(services.dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    expect((await deleting).error).toBeUndefined();
    expect(issueOf((await creating).error)).toMatchObject({
      parameter: 'location_uuid',
      errorKey: 'not_found',
    });
    expect(await rowCount('assets.controllers WHERE location_uuid = $1', [location.uuid])).toBe(0);
  });
});

describe('facility types', () => {
  it('are unique per tenant case-insensitively; another tenant may have the name', async () => {
    await services.facilityTypes.create(tenant, { name: 'Parking' });
    const { error } = await outcome(services.facilityTypes.create(tenant, { name: 'PARKING' }));
    expect(issueOf(error)).toMatchObject({ parameter: 'name', errorKey: 'already_exists' });
    const theirs = await services.facilityTypes.create(otherTenant, { name: `Parking ${randomUUID()}` });
    const mine = await services.facilityTypes.list(tenant, { ...list, filter: {} });
    expect(mine.items.map((type) => type.name)).toEqual(['Parking']);
    expect(mine.items.map((type) => type.uuid)).not.toContain(theirs.uuid);
  });

  it('answer 422 already_exists, not 5xx, to a create racing one of the same name', async () => {
    // The other create has inserted but not committed: this one's check cannot see it, its insert waits.
    const session = await openSession(services.dataSource);
    let creating: Promise<{ value?: unknown; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.facility_types (uuid, tenant_uuid, name) VALUES ($1, $2, 'Restrooms')`,
        [randomUUID(), tenant],
      );
      creating = outcome(services.facilityTypes.create(tenant, { name: 'restrooms' }));
      await lockWaiters(services.dataSource, 1);
      await session.commitTransaction();
    } finally {
      await session.release();
    }
    expect(issueOf((await creating).error)).toMatchObject({ parameter: 'name', errorKey: 'already_exists' });
  });
});

describe('reads grouped into one statement', () => {
  it('answer each read with its own tenant, a malformed uuid and a foreign one with 404', async () => {
    const mine = await services.locations.create(tenant, { name: 'Mine' });
    const theirs = await services.locations.create(otherTenant, { name: 'Theirs' });
    const reads = await Promise.all(
      [
        [tenant, mine.uuid],
        [otherTenant, theirs.uuid],
        [tenant, theirs.uuid],
        [tenant, 'not-a-uuid'],
        [tenant, mine.uuid.toUpperCase()],
      ].map(([tenantUuid, uuid]) => outcome(services.locations.get(tenantUuid, uuid))),
    );
    const names = reads.map((read) => read.value?.name ?? read.error);
    expect(names[0]).toBe('Mine');
    expect(names[1]).toBe('Theirs');
    expect(names[2]).toBeInstanceOf(NotFoundError);
    expect(names[3]).toBeInstanceOf(NotFoundError);
    expect(names[4]).toBe('Mine');
  });
});
