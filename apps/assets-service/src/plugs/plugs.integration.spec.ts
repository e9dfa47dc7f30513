import 'reflect-metadata';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ControllerView, CreatePlugPayload, PlugView } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { type AssetServices, createAssetServices, issueOf } from '../testing/asset-services.js';

/**
 * PlugsService against real PostgreSQL: controllers of the tenant only, connector ids unique per controller even
 * between concurrent writes, creates racing the controller's delete, and a plug's location read with the plug
 * (interleaving forced with locks of a second session).
 */

jest.setTimeout(60_000);

let services: AssetServices;
let tenant: string;
let locationUuid: string;
let controller: ControllerView;
const otherTenant = randomUUID();
let foreignController: ControllerView;
let identities = 0;

beforeAll(async () => {
  services = await createAssetServices();
  const theirs = await services.locations.create(otherTenant, { name: 'Theirs' });
  foreignController = await services.controllers.create(otherTenant, {
    location_uuid: theirs.uuid,
    name: 'Theirs',
    ocpp_identity: 'THEIRS',
    security_profile: 0,
  });
});
afterAll(() => services?.drop());
beforeEach(async () => {
  tenant = randomUUID();
  locationUuid = (await services.locations.create(tenant, { name: 'Depot' })).uuid;
  controller = await newController();
});

function newController(location = locationUuid): Promise<ControllerView> {
  const identity = `PLG-${++identities}`;
  return services.controllers.create(tenant, {
    location_uuid: location,
    name: identity,
    ocpp_identity: identity,
    security_profile: 0,
  });
}

function plug(connectorId: number, controllerUuid = controller.uuid): CreatePlugPayload {
  return {
    controller_uuid: controllerUuid,
    connector_id: connectorId,
    standard: 'iec_62196_t2',
    power_type: 'ac_3_phase',
    max_power_kw: 22,
  };
}

async function plugsOf(controllerUuid: string): Promise<number> {
  const [{ count }] = await services.dataSource.query<{ count: number }[]>(
    'SELECT count(*)::int AS count FROM assets.plugs WHERE controller_uuid = $1',
    [controllerUuid],
  );
  return count;
}

const list = { page: 1, limit: 50, orderBy: [] };

describe('create', () => {
  it("answers its controller's location; an upper-case controller uuid is stored lower-case", async () => {
    const created = await services.plugs.create(tenant, {
      ...plug(1, controller.uuid.toUpperCase()),
      max_power_kw: 22.5,
    });
    expect(created).toMatchObject({
      controller_uuid: controller.uuid,
      location_uuid: locationUuid,
      connector_id: 1,
      evse_id: 1,
      name: null,
      max_power_kw: 22.5,
      status: 'unknown',
    });
    expect(await services.plugs.get(tenant, created.uuid.toUpperCase())).toEqual(created);
  });

  it("refuses another tenant's controller with 422 controller_uuid and writes nothing", async () => {
    const { error } = await outcome(services.plugs.create(tenant, plug(1, foreignController.uuid)));
    expect(issueOf(error)).toMatchObject({ parameter: 'controller_uuid', errorKey: 'not_found' });
    expect(await plugsOf(foreignController.uuid)).toBe(0);
  });

  it("refuses a connector id the controller has; another controller's is free", async () => {
    await services.plugs.create(tenant, plug(1));
    const { error } = await outcome(services.plugs.create(tenant, plug(1)));
    expect(issueOf(error)).toMatchObject({ parameter: 'connector_id', errorKey: 'already_exists' });
    const second = await newController();
    expect((await services.plugs.create(tenant, plug(1, second.uuid))).connector_id).toBe(1);
  });

  it('answers 422 already_exists, not 5xx, to a create racing one of the same connector', async () => {
    const session = await openSession(services.dataSource);
    let creating: Promise<{ value?: PlugView; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type,
                                   max_power_kw)
         VALUES ($1, $2, $3, 3, 3, 'chademo', 'dc', 50)`,
        [randomUUID(), tenant, controller.uuid],
      );
      creating = outcome(services.plugs.create(tenant, plug(3)));
      await lockWaiters(services.dataSource, 1);
      await session.commitTransaction();
    } finally {
      await session.release();
    }
    expect(issueOf((await creating).error)).toMatchObject({
      parameter: 'connector_id',
      errorKey: 'already_exists',
    });
    expect(await plugsOf(controller.uuid)).toBe(1);
  });

  it('made while the controller is being deleted fails with 422 controller_uuid and leaves no plug', async () => {
    const sensor = await services.sensors.create(tenant, {
      controller_uuid: controller.uuid,
      kind: 'door',
      name: 'D',
    });
    // The held sensor stops the delete at its cascade, after it locked the controller.
    const session = await openSession(services.dataSource);
    let deleting: Promise<{ value?: void; error?: unknown }>;
    let creating: Promise<{ value?: PlugView; error?: unknown }>;
    try {
      await session.query('SELECT 1 FROM assets.sensors WHERE uuid = $1 FOR UPDATE', [sensor.uuid]);
      deleting = outcome(services.controllers.delete(tenant, controller.uuid));
      await lockWaiters(services.dataSource, 1);
      creating = outcome(services.plugs.create(tenant, plug(1)));
      await lockWaiters(services.dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    expect((await deleting).error).toBeUndefined();
    expect(issueOf((await creating).error)).toMatchObject({
      parameter: 'controller_uuid',
      errorKey: 'not_found',
    });
    expect(await plugsOf(controller.uuid)).toBe(0);
  });

  it('made before a delete of the controller commits is removed with the controller', async () => {
    // An uncommitted plug on connector 2 stops the create at its insert, after it locked the controller.
    const session = await openSession(services.dataSource);
    let creating: Promise<{ value?: PlugView; error?: unknown }>;
    let deleting: Promise<{ value?: void; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type,
                                   max_power_kw)
         VALUES ($1, $2, $3, 2, 2, 'chademo', 'dc', 50)`,
        [randomUUID(), tenant, controller.uuid],
      );
      creating = outcome(services.plugs.create(tenant, plug(2)));
      await lockWaiters(services.dataSource, 1);
      deleting = outcome(services.controllers.delete(tenant, controller.uuid));
      await lockWaiters(services.dataSource, 2);
    } finally {
      await session.rollbackTransaction();
      await session.release();
    }
    expect((await creating).error).toBeUndefined();
    expect((await deleting).error).toBeUndefined();
    expect(await plugsOf(controller.uuid)).toBe(0);
  });
});

describe('update', () => {
  it('refuses a connector id taken on the controller and changes none of the other fields', async () => {
    await services.plugs.create(tenant, plug(1));
    const second = await services.plugs.create(tenant, plug(2));
    const { error } = await outcome(
      services.plugs.update(tenant, second.uuid, { connector_id: 1, name: 'Renamed', max_power_kw: 50 }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'connector_id', errorKey: 'already_exists' });
    expect(await services.plugs.get(tenant, second.uuid)).toEqual(second);
  });

  it("answers 404 to another tenant's read, update and delete, and changes nothing", async () => {
    const created = await services.plugs.create(tenant, plug(1));
    await expect(services.plugs.get(otherTenant, created.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.plugs.update(otherTenant, created.uuid, { name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(services.plugs.delete(otherTenant, created.uuid)).rejects.toBeInstanceOf(NotFoundError);
    expect(await services.plugs.get(tenant, created.uuid)).toEqual(created);
  });
});

describe('location of a plug', () => {
  it("follows its controller's move, in reads and in the location filter", async () => {
    const created = await services.plugs.create(tenant, plug(1));
    const other = await services.locations.create(tenant, { name: 'Other' });
    await services.controllers.update(tenant, controller.uuid, { location_uuid: other.uuid });
    expect((await services.plugs.get(tenant, created.uuid)).location_uuid).toBe(other.uuid);
    const there = await services.plugs.list(tenant, { ...list, filter: { location_uuid: other.uuid } });
    expect(there.items.map((item) => [item.uuid, item.location_uuid])).toEqual([[created.uuid, other.uuid]]);
    const before = await services.plugs.list(tenant, { ...list, filter: { location_uuid: locationUuid } });
    expect(before.items).toEqual([]);
  });

  it("lists by another tenant's location or controller nothing", async () => {
    await services.plugs.create(tenant, plug(1));
    const theirs = await services.plugs.list(tenant, {
      ...list,
      filter: { controller_uuid: foreignController.uuid },
    });
    expect(theirs.items).toEqual([]);
    const at = await services.plugs.list(tenant, {
      ...list,
      filter: { location_uuid: foreignController.location_uuid },
    });
    expect(at.items).toEqual([]);
  });

  /**
   * Holds the controllers table from a second session: the plug read (plugs only) goes through, the read of its
   * controller's location waits; meanwhile the session deletes the controller (its plugs with it) and commits.
   */
  async function deleteControllerBetweenStatements<T>(
    read: () => Promise<T>,
  ): Promise<{ value?: T; error?: unknown }> {
    const session = await openSession(services.dataSource);
    let reading: Promise<{ value?: T; error?: unknown }>;
    try {
      await session.query('LOCK TABLE assets.controllers IN ACCESS EXCLUSIVE MODE');
      reading = outcome(read());
      await lockWaiters(services.dataSource, 1);
      await session.query('DELETE FROM assets.controllers WHERE uuid = $1', [controller.uuid]);
      await session.commitTransaction();
    } finally {
      await session.release();
    }
    return reading;
  }

  // The plug and its controller's location are two statements: a controller deleted in between took the plug along.
  it('of a plug whose controller is deleted while it is read is never missing: the read answers 404', async () => {
    const created = await services.plugs.create(tenant, plug(1));
    const { value, error } = await deleteControllerBetweenStatements(() =>
      services.plugs.get(tenant, created.uuid),
    );
    expect(value).toBeUndefined();
    expect(error).toBeInstanceOf(NotFoundError);
  });

  // The same for a page: a plug whose controller is gone by the second statement is left out, never without a location.
  it('is in every item of a list that ran while the controller was deleted', async () => {
    await services.plugs.create(tenant, plug(1));
    const { value, error } = await deleteControllerBetweenStatements(() =>
      services.plugs.list(tenant, { ...list, filter: {} }),
    );
    expect(error).toBeUndefined();
    for (const item of value!.items) expect(item.location_uuid).toBe(locationUuid);
  });
});
