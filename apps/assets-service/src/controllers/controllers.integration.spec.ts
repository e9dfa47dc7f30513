import 'reflect-metadata';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { AssetsSubjects, type ControllerView } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { type AssetServices, createAssetServices, issueOf } from '../testing/asset-services.js';

/**
 * ControllersService against real PostgreSQL: locations of the tenant only, OCPP identities unique per tenant even
 * between concurrent writes (interleaving forced with an uncommitted row of a second session), credential changes and
 * deletes with their outbox events in the same transaction, and nothing written by a refused update.
 */

jest.setTimeout(60_000);

let services: AssetServices;
let tenant: string;
let locationUuid: string;
const otherTenant = randomUUID();
let foreignLocation: string;
let identities = 0;

beforeAll(async () => {
  services = await createAssetServices();
  foreignLocation = (await services.locations.create(otherTenant, { name: 'Theirs' })).uuid;
});
afterAll(() => services?.drop());
beforeEach(async () => {
  tenant = randomUUID();
  locationUuid = (await services.locations.create(tenant, { name: 'Depot' })).uuid;
});

function nextIdentity(): string {
  return `CTL-${++identities}`;
}

function createController(identity = nextIdentity(), location = locationUuid): Promise<ControllerView> {
  return services.controllers.create(tenant, {
    location_uuid: location,
    name: identity,
    ocpp_identity: identity,
    security_profile: 0,
  });
}

async function stored(uuid: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await services.dataSource.query<Record<string, unknown>[]>(
    `SELECT location_uuid, ocpp_identity, credentials_version, security_profile, name
       FROM assets.controllers WHERE uuid = $1`,
    [uuid],
  );
  return row;
}

async function outboxFor(controllerUuid: string): Promise<string[]> {
  const rows = await services.dataSource.query<{ subject: string }[]>(
    `SELECT subject FROM assets.outbox_events WHERE envelope->'data'->>'controllerUuid' = $1 ORDER BY created_at`,
    [controllerUuid],
  );
  const published = services.published
    .filter((event) => (event.envelope.data as { controllerUuid?: string }).controllerUuid === controllerUuid)
    .map((event) => event.subject);
  return [...rows.map((row) => row.subject), ...published];
}

describe('create', () => {
  it("refuses another tenant's location with 422 location_uuid and writes nothing", async () => {
    const identity = nextIdentity();
    const { error } = await outcome(createController(identity, foreignLocation));
    expect(issueOf(error)).toMatchObject({ parameter: 'location_uuid', errorKey: 'not_found' });
    const [{ count }] = await services.dataSource.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM assets.controllers WHERE location_uuid = $1',
      [foreignLocation],
    );
    expect(count).toBe(0);
  });

  it('takes an upper-case location uuid and answers it lower-case, as stored', async () => {
    const created = await createController(nextIdentity(), locationUuid.toUpperCase());
    expect(created.location_uuid).toBe(locationUuid);
    expect(await services.controllers.get(tenant, created.uuid.toUpperCase())).toEqual(created);
  });

  it('refuses an identity of the tenant in any case; another tenant may use it', async () => {
    const identity = nextIdentity();
    await createController(identity);
    const { error } = await outcome(createController(identity.toLowerCase()));
    expect(issueOf(error)).toMatchObject({ parameter: 'ocpp_identity', errorKey: 'already_exists' });
    const theirs = await services.controllers.create(otherTenant, {
      location_uuid: foreignLocation,
      name: 'Theirs',
      ocpp_identity: identity,
      security_profile: 0,
    });
    expect(theirs.ocpp_identity).toBe(identity);
  });

  it('answers 422 already_exists, not 5xx, to a create racing one of the same identity', async () => {
    const identity = nextIdentity();
    const session = await openSession(services.dataSource);
    let creating: Promise<{ value?: ControllerView; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
         VALUES ($1, $2, $3, 'First', $4, 0)`,
        [randomUUID(), tenant, locationUuid, identity],
      );
      creating = outcome(createController(identity.toLowerCase()));
      await lockWaiters(services.dataSource, 1);
      await session.commitTransaction();
    } finally {
      await session.release();
    }
    expect(issueOf((await creating).error)).toMatchObject({
      parameter: 'ocpp_identity',
      errorKey: 'already_exists',
    });
  });

  it('needs a password for security profiles 1 and 2', async () => {
    const { error } = await outcome(
      services.controllers.create(tenant, {
        location_uuid: locationUuid,
        name: 'x',
        ocpp_identity: nextIdentity(),
        security_profile: 1,
      }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'ocpp_password', errorKey: 'required' });
  });
});

describe('tenancy', () => {
  it("answers 404 to another tenant's read, update and delete, and changes nothing", async () => {
    const controller = await createController();
    await expect(services.controllers.get(otherTenant, controller.uuid)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      services.controllers.update(otherTenant, controller.uuid, { name: 'Taken over' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.controllers.delete(otherTenant, controller.uuid)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await services.controllers.get(tenant, controller.uuid)).toEqual(controller);
    expect(await outboxFor(controller.uuid)).toEqual([]);
  });

  it('answers existence per (tenant, controller) pair, a malformed uuid as missing', async () => {
    const controller = await createController();
    expect(
      await services.controllers.exist([
        { tenantUuid: tenant, uuid: controller.uuid.toUpperCase() },
        { tenantUuid: otherTenant, uuid: controller.uuid },
        { tenantUuid: tenant, uuid: 'nope' },
        { tenantUuid: tenant, uuid: controller.uuid },
      ]),
    ).toEqual([true, false, false, true]);
  });

  it("lists only the tenant's controllers, also when filtered by another tenant's location", async () => {
    const controller = await createController();
    const request = { page: 1, limit: 50, orderBy: [] };
    const mine = await services.controllers.list(tenant, { ...request, filter: {} });
    expect(mine.items).toEqual([controller]);
    const foreign = await services.controllers.list(tenant, {
      ...request,
      filter: { location_uuid: foreignLocation },
    });
    expect(foreign.items).toEqual([]);
  });
});

describe('update', () => {
  it("refuses a move to another tenant's location and keeps the controller where it was", async () => {
    const controller = await createController();
    const { error } = await outcome(
      services.controllers.update(tenant, controller.uuid, {
        location_uuid: foreignLocation,
        name: 'Moved',
      }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'location_uuid', errorKey: 'not_found' });
    expect(await stored(controller.uuid)).toMatchObject({
      location_uuid: locationUuid,
      name: controller.name,
    });
  });

  it('moves to an upper-case location uuid of the tenant', async () => {
    const controller = await createController();
    const other = await services.locations.create(tenant, { name: 'Other' });
    const moved = await services.controllers.update(tenant, controller.uuid, {
      location_uuid: other.uuid.toUpperCase(),
    });
    expect(moved.location_uuid).toBe(other.uuid);
    expect((await services.locations.get(tenant, other.uuid)).controllers).toEqual([
      { controller_uuid: controller.uuid },
    ]);
  });

  it('raises the credentials version and publishes one event with the change of identity', async () => {
    const controller = await createController();
    const identity = nextIdentity();
    const updated = await services.controllers.update(tenant, controller.uuid, { ocpp_identity: identity });
    expect(updated.ocpp_identity).toBe(identity);
    expect(await stored(controller.uuid)).toMatchObject({ credentials_version: 2 });
    const event = services.published.find(
      (published) =>
        published.subject === AssetsSubjects.controllerCredentialsChanged &&
        (published.envelope.data as { controllerUuid: string }).controllerUuid === controller.uuid,
    );
    expect(event?.envelope).toMatchObject({
      tenantUuid: tenant,
      data: { ocppIdentity: identity, credentialsVersion: 2, changed: ['ocpp_identity'] },
    });
  });

  it('changes nothing and writes no event when a profile needing a password has none', async () => {
    const controller = await createController();
    const { error } = await outcome(
      services.controllers.update(tenant, controller.uuid, {
        security_profile: 1,
        ocpp_identity: nextIdentity(),
        name: 'Renamed',
      }),
    );
    expect(issueOf(error)).toMatchObject({ parameter: 'ocpp_password', errorKey: 'required' });
    expect(await stored(controller.uuid)).toMatchObject({
      ocpp_identity: controller.ocpp_identity,
      credentials_version: 1,
      security_profile: 0,
      name: controller.name,
    });
    expect(await outboxFor(controller.uuid)).toEqual([]);
  });

  it('answers 422 and writes no event when a racing write takes the identity first', async () => {
    const controller = await createController();
    const identity = nextIdentity();
    const session = await openSession(services.dataSource);
    let updating: Promise<{ value?: ControllerView; error?: unknown }>;
    try {
      await session.query(
        `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
         VALUES ($1, $2, $3, 'First', $4, 0)`,
        [randomUUID(), tenant, locationUuid, identity],
      );
      updating = outcome(services.controllers.update(tenant, controller.uuid, { ocpp_identity: identity }));
      await lockWaiters(services.dataSource, 1);
      await session.commitTransaction();
    } finally {
      await session.release();
    }
    expect(issueOf((await updating).error)).toMatchObject({ errorKey: 'already_exists' });
    expect(await stored(controller.uuid)).toMatchObject({
      ocpp_identity: controller.ocpp_identity,
      credentials_version: 1,
    });
    expect(await outboxFor(controller.uuid)).toEqual([]);
  });

  it('waits for a delete of the target location and then refuses the move', async () => {
    const controller = await createController();
    const target = await services.locations.create(tenant, { name: 'Target' });
    const sensor = await services.sensors.create(tenant, {
      location_uuid: target.uuid,
      kind: 'door',
      name: 'D',
    });
    // The held sensor stops the delete at its cascade, after it found no controller at the target.
    const session = await openSession(services.dataSource);
    let deleting: Promise<{ value?: void; error?: unknown }>;
    let moving: Promise<{ value?: ControllerView; error?: unknown }>;
    try {
      await session.query('SELECT 1 FROM assets.sensors WHERE uuid = $1 FOR UPDATE', [sensor.uuid]);
      deleting = outcome(services.locations.delete(tenant, target.uuid));
      await lockWaiters(services.dataSource, 1);
      moving = outcome(services.controllers.update(tenant, controller.uuid, { location_uuid: target.uuid }));
      await lockWaiters(services.dataSource, 2);
    } finally {
      await session.commitTransaction();
      await session.release();
    }
    expect((await deleting).error).toBeUndefined();
    expect(issueOf((await moving).error)).toMatchObject({
      parameter: 'location_uuid',
      errorKey: 'not_found',
    });
    expect(await stored(controller.uuid)).toMatchObject({ location_uuid: locationUuid });
  });
});

describe('delete', () => {
  it('takes the plugs and attached sensors with it and publishes controller-deleted once', async () => {
    const controller = await createController();
    const plug = await services.plugs.create(tenant, {
      controller_uuid: controller.uuid,
      connector_id: 1,
      standard: 'iec_62196_t2',
      power_type: 'ac_3_phase',
      max_power_kw: 11,
    });
    const sensor = await services.sensors.create(tenant, {
      controller_uuid: controller.uuid,
      kind: 'energy_meter',
      name: 'M',
    });
    await services.controllers.delete(tenant, controller.uuid.toUpperCase());
    await expect(services.controllers.get(tenant, controller.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.plugs.get(tenant, plug.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(services.sensors.get(tenant, sensor.uuid)).rejects.toBeInstanceOf(NotFoundError);
    // Published after the commit and removed from the outbox.
    expect(await outboxFor(controller.uuid)).toEqual([AssetsSubjects.controllerDeleted]);
    const event = services.published.find(
      (published) =>
        published.subject === AssetsSubjects.controllerDeleted &&
        (published.envelope.data as { controllerUuid: string }).controllerUuid === controller.uuid,
    );
    expect(event?.envelope).toMatchObject({
      tenantUuid: tenant,
      data: { ocppIdentity: controller.ocpp_identity, locationUuid },
    });
    await expect(services.controllers.delete(tenant, controller.uuid)).rejects.toBeInstanceOf(NotFoundError);
  });
});
