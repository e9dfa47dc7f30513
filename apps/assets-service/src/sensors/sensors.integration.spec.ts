import 'reflect-metadata';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ControllerView, SensorView } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { type AssetServices, createAssetServices, issueOf } from '../testing/asset-services.js';

/**
 * SensorsService against real PostgreSQL: exactly one parent of the tenant, tenancy of every read and write, and a
 * create racing its parent's delete (interleaving forced with row locks of a second session).
 */

jest.setTimeout(60_000);

let services: AssetServices;
let tenant: string;
let locationUuid: string;
let controller: ControllerView;
const otherTenant = randomUUID();
let foreignLocation: string;
let foreignController: string;
let identities = 0;

beforeAll(async () => {
  services = await createAssetServices();
  foreignLocation = (await services.locations.create(otherTenant, { name: 'Theirs' })).uuid;
  foreignController = (
    await services.controllers.create(otherTenant, {
      location_uuid: foreignLocation,
      name: 'Theirs',
      ocpp_identity: 'THEIRS',
      security_profile: 0,
    })
  ).uuid;
});
afterAll(() => services?.drop());
beforeEach(async () => {
  tenant = randomUUID();
  locationUuid = (await services.locations.create(tenant, { name: 'Depot' })).uuid;
  const identity = `SEN-${++identities}`;
  controller = await services.controllers.create(tenant, {
    location_uuid: locationUuid,
    name: identity,
    ocpp_identity: identity,
    security_profile: 0,
  });
});

async function sensorsOf(tenantUuid: string): Promise<number> {
  const [{ count }] = await services.dataSource.query<{ count: number }[]>(
    'SELECT count(*)::int AS count FROM assets.sensors WHERE tenant_uuid = $1',
    [tenantUuid],
  );
  return count;
}

describe('create', () => {
  it('belongs to exactly one parent', async () => {
    const neither = await outcome(services.sensors.create(tenant, { kind: 'door', name: 'D' }));
    expect(issueOf(neither.error)).toMatchObject({
      parameter: 'location_uuid',
      errorKey: 'exactly_one_parent',
    });
    const both = await outcome(
      services.sensors.create(tenant, {
        kind: 'door',
        name: 'D',
        location_uuid: locationUuid,
        controller_uuid: controller.uuid,
      }),
    );
    expect(issueOf(both.error)).toMatchObject({
      parameter: 'controller_uuid',
      errorKey: 'exactly_one_parent',
    });
    expect(await sensorsOf(tenant)).toBe(0);
  });

  it('takes upper-case parent uuids and answers them lower-case', async () => {
    const atLocation = await services.sensors.create(tenant, {
      kind: 'temperature',
      name: 'T',
      location_uuid: locationUuid.toUpperCase(),
    });
    const atController = await services.sensors.create(tenant, {
      kind: 'energy_meter',
      name: 'M',
      controller_uuid: controller.uuid.toUpperCase(),
    });
    expect(atLocation).toMatchObject({
      location_uuid: locationUuid,
      controller_uuid: null,
      serial_number: null,
    });
    expect(atController).toMatchObject({ location_uuid: null, controller_uuid: controller.uuid });
    expect(await services.sensors.get(tenant, atController.uuid.toUpperCase())).toEqual(atController);
  });

  it("refuses another tenant's location or controller with 422 not_found", async () => {
    const location = await outcome(
      services.sensors.create(tenant, { kind: 'door', name: 'D', location_uuid: foreignLocation }),
    );
    expect(issueOf(location.error)).toMatchObject({ parameter: 'location_uuid', errorKey: 'not_found' });
    const onController = await outcome(
      services.sensors.create(tenant, { kind: 'door', name: 'D', controller_uuid: foreignController }),
    );
    expect(issueOf(onController.error)).toMatchObject({
      parameter: 'controller_uuid',
      errorKey: 'not_found',
    });
    expect(await sensorsOf(tenant)).toBe(0);
  });

  it('made while its controller is being deleted fails with 422 and leaves no sensor', async () => {
    const plug = await services.plugs.create(tenant, {
      controller_uuid: controller.uuid,
      connector_id: 1,
      standard: 'chademo',
      power_type: 'dc',
      max_power_kw: 50,
    });
    // The held plug stops the delete at its cascade, after it locked the controller.
    const session = await openSession(services.dataSource);
    let deleting: Promise<{ value?: void; error?: unknown }>;
    let creating: Promise<{ value?: SensorView; error?: unknown }>;
    try {
      await session.query('SELECT 1 FROM assets.plugs WHERE uuid = $1 FOR UPDATE', [plug.uuid]);
      deleting = outcome(services.controllers.delete(tenant, controller.uuid));
      await lockWaiters(services.dataSource, 1);
      creating = outcome(
        services.sensors.create(tenant, { kind: 'door', name: 'D', controller_uuid: controller.uuid }),
      );
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
    expect(await sensorsOf(tenant)).toBe(0);
  });
});

describe('tenancy', () => {
  it("answers 404 to another tenant's read, update and delete, and changes nothing", async () => {
    const sensor = await services.sensors.create(tenant, {
      kind: 'smoke',
      name: 'S',
      location_uuid: locationUuid,
    });
    await expect(services.sensors.get(otherTenant, sensor.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.sensors.update(otherTenant, sensor.uuid, { name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(services.sensors.delete(otherTenant, sensor.uuid)).rejects.toBeInstanceOf(NotFoundError);
    expect(await services.sensors.get(tenant, sensor.uuid)).toEqual(sensor);
    const theirs = await services.sensors.list(otherTenant, {
      page: 1,
      limit: 50,
      orderBy: [],
      filter: { location_uuid: locationUuid },
    });
    expect(theirs.items).toEqual([]);
  });
});

describe('update and delete', () => {
  it('changes only the fields sent, clears a null serial number, and a delete is final', async () => {
    const sensor = await services.sensors.create(tenant, {
      kind: 'humidity',
      name: 'H',
      serial_number: 'SN-1',
      controller_uuid: controller.uuid,
    });
    const updated = await services.sensors.update(tenant, sensor.uuid, { serial_number: null, name: 'H2' });
    expect(updated).toMatchObject({ kind: 'humidity', name: 'H2', serial_number: null });
    expect(await services.sensors.get(tenant, sensor.uuid)).toEqual(updated);
    await services.sensors.delete(tenant, sensor.uuid.toUpperCase());
    await expect(services.sensors.delete(tenant, sensor.uuid)).rejects.toBeInstanceOf(NotFoundError);
  });
});
