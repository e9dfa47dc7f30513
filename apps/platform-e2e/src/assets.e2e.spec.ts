import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  type ControllerDeletedEvent,
  type ControllerView,
  type EventEnvelope,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import type { components, operations, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  fullLocationBody,
  OCPP_PASSWORD,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  unique,
  usersWithRoles,
} from '@cpc/testing';
import { sdkTestUser } from './support/sdk-test-client.js';

const RATE_LIMIT = 400;

type Schemas = components['schemas'];
type Kind = 'locations' | 'controllers' | 'plugs' | 'sensors';

/** The validation issues of a refusal (the spec's `{errors: [...]}`). */
const issuesOf = (error: unknown) => (error as Schemas['ValidationErrorsBody']).errors;

/**
 * Untyped escape: a body the document does not allow, sent on purpose to see it refused. The typed client cannot
 * express it, so the tests of refusals (and only they) hand it over as the type the route takes.
 */
const invalid = <T>(value: unknown) => value as T;

/** Untyped escape for queries: the query string as it is, values the document does not allow included. */
const rawQuery = (query: string) => ({ querySerializer: () => query });

/** GET of one asset, typed per kind. */
function readOne(as: PlatformClient, kind: Kind, uuid: string) {
  const params = { path: { uuid } };
  switch (kind) {
    case 'locations':
      return as.api.GET('/api/v1/assets/locations/{uuid}', { params });
    case 'controllers':
      return as.api.GET('/api/v1/assets/controllers/{uuid}', { params });
    case 'plugs':
      return as.api.GET('/api/v1/assets/plugs/{uuid}', { params });
    case 'sensors':
      return as.api.GET('/api/v1/assets/sensors/{uuid}', { params });
  }
}

/** DELETE of one asset, typed per kind. */
function deleteOne(as: PlatformClient, kind: Kind, uuid: string) {
  const params = { path: { uuid } };
  switch (kind) {
    case 'locations':
      return as.api.DELETE('/api/v1/assets/locations/{uuid}', { params });
    case 'controllers':
      return as.api.DELETE('/api/v1/assets/controllers/{uuid}', { params });
    case 'plugs':
      return as.api.DELETE('/api/v1/assets/plugs/{uuid}', { params });
    case 'sensors':
      return as.api.DELETE('/api/v1/assets/sensors/{uuid}', { params });
  }
}

/** PATCH of one asset's name, typed per kind. */
function renameOne(as: PlatformClient, kind: Kind, uuid: string, name: string) {
  const params = { path: { uuid } };
  switch (kind) {
    case 'locations':
      return as.api.PATCH('/api/v1/assets/locations/{uuid}', { params, body: { name } });
    case 'controllers':
      return as.api.PATCH('/api/v1/assets/controllers/{uuid}', { params, body: { name } });
    case 'plugs':
      return as.api.PATCH('/api/v1/assets/plugs/{uuid}', { params, body: { name } });
    case 'sensors':
      return as.api.PATCH('/api/v1/assets/sensors/{uuid}', { params, body: { name } });
  }
}

/**
 * The assets routes through HTTP with the typed SDK (libs/sdk), every answer checked against the served OpenAPI
 * document; test data is set up by AssetsTestData. What the typed client cannot send (bodies and queries outside the
 * document, no token, a method the document has not) goes out untyped, each place saying so.
 */
describe('assets API: locations, controllers, plugs, sensors', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let validator: OpenApiResponseValidator;
  let nats: NatsConnection;
  let events: JetStreamEventBus;
  let acme: { uuid: string };
  let opsToken: string;
  /** acme's operator (every asset permission), acme's viewer (reads locations, lists controllers), rival's operator. */
  let ops: PlatformClient;
  let viewer: PlatformClient;
  let rival: PlatformClient;
  let data: AssetsTestData;
  let rivalData: AssetsTestData;

  /** A user of `tenant` with a role of `permissions`: its access token, and the SDK signed in as it. */
  async function userWith(
    tenant: string,
    role: string,
    permissions: string,
  ): Promise<{ token: string; sdk: PlatformClient }> {
    const token = (await usersWithRoles(platform, api, tenant, { [role]: permissions }))[role];
    return { token, sdk: await sdkTestUser(platform.apiUrl, tenant, role, validator) };
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway'],
      env: { API_RATE_LIMIT_PER_SUBJECT: String(RATE_LIMIT) },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    nats = await connect(platform.natsTestClientOptions);
    events = new JetStreamEventBus(nats);
    acme = await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['tenant:create', '--slug', 'rival']);
    const operator = await userWith('acme', 'operator', 'asset');
    opsToken = operator.token;
    ops = operator.sdk;
    viewer = (await userWith('acme', 'viewer', 'asset:locations:read,asset:controllers:list')).sdk;
    const rivalOperator = await userWith('rival', 'operator', 'asset');
    rival = rivalOperator.sdk;
    data = new AssetsTestData(api, opsToken);
    rivalData = new AssetsTestData(api, rivalOperator.token);
  }, 180_000);

  afterAll(async () => {
    await events?.onApplicationShutdown();
    await nats?.drain();
    await platform?.stop();
  });

  const readLocation = (uuid: string, as: PlatformClient = ops) =>
    as.api.GET('/api/v1/assets/locations/{uuid}', { params: { path: { uuid } } });
  const createLocation = (body: Schemas['CreateLocationBody'], as: PlatformClient = ops) =>
    as.api.POST('/api/v1/assets/locations', { body });

  describe('GET /assets/locations/{uuid}', () => {
    it('answers every field of the spec, each in its format', async () => {
      const parking = await data.facilityType();
      const created = await data.fullLocation({ facility_types: [{ uuid: parking.uuid }] });
      const { data: body, response } = await readLocation(created.uuid);
      expect(response.status).toBe(200);
      const location = body!.location;
      expect(Object.keys(body!)).toEqual(['location']);
      expect(new Set(Object.keys(location))).toEqual(
        new Set([
          ...Object.keys(fullLocationBody()).filter((key) => key !== 'facility_types'),
          'uuid',
          'created_at',
          'updated_at',
          'controllers',
          'charge_point_count',
          'facility_types',
        ]),
      );
      const today = new Date().toISOString().slice(0, 10);
      expect(location).toEqual({
        ...fullLocationBody({ name: created.name }),
        uuid: created.uuid,
        created_at: today,
        updated_at: today,
        modification_date: '2025-03-14',
        height: '8.50',
        support_hotline: '+494012345678',
        controllers: [],
        charge_point_count: 0,
        facility_types: [{ uuid: parking.uuid, name: parking.name }],
      });
      for (const field of ['created_at', 'updated_at', 'modification_date'] as const) {
        expect(location[field]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      expect(location.latitude).toMatch(/^-?\d+\.\d+$/);
      expect(location.longitude).toMatch(/^-?\d+\.\d+$/);
      expect(location.height).toMatch(/^-?\d+\.\d{2}$/);
      expect(location.country_code).toMatch(/^[A-Z]{3}$/);
      expect(location.support_hotline).toMatch(/^\+[1-9]\d{6,14}$/);
      expect(new URL(location.website as string).protocol).toBe('https:');
      expect(Number.isInteger(location.contract_id)).toBe(true);
      expect(typeof location.publish).toBe('boolean');
    });

    it('lists its controllers and counts one charge point per EVSE of their plugs', async () => {
      const location = await data.location();
      const first = await data.controller(location.uuid);
      const second = await data.controller(location.uuid);
      await data.controller(location.uuid); // no plugs yet: no charge point
      await data.plug(first.uuid, 1);
      await data.plug(first.uuid, 2);
      await data.plug(second.uuid, 1, { evse_id: 1 });
      await data.plug(second.uuid, 2, {
        evse_id: 1,
        standard: 'iec_62196_t2_combo',
        power_type: 'dc',
        max_power_kw: 150,
      });
      const { data: body } = await readLocation(location.uuid);
      expect(body!.location.charge_point_count).toBe(3);
      expect(body!.location.controllers).toHaveLength(3);
      expect(body!.location.controllers).toEqual(
        expect.arrayContaining([{ controller_uuid: first.uuid }, { controller_uuid: second.uuid }]),
      );
    });

    it('leaves out what was never recorded, and answers the defaults', async () => {
      const created = await data.location({ name: 'Bare' });
      const { data: body } = await readLocation(created.uuid);
      expect(body!.location).toMatchObject({
        name: 'Bare',
        status: 'active',
        publish: false,
        modification_date: body!.location.created_at,
        controllers: [],
        facility_types: [],
      });
      for (const unset of ['street', 'latitude', 'height', 'website', 'contract_id'])
        expect(body!.location).not.toHaveProperty(unset);
    });

    it('answers 404 for a missing location and 422 for a path that is not a UUID', async () => {
      const missing = await readLocation(randomUUID());
      expect(missing.response.status).toBe(404);
      expect(missing.error).toEqual({ error: expect.any(String) });
      const malformed = await readLocation('not-a-uuid');
      expect(malformed.response.status).toBe(422);
      expect(issuesOf(malformed.error)).toEqual([
        { errorKey: 'invalid_uuid', message: expect.any(String), parameter: 'uuid' },
      ]);
    });
  });

  describe('location validation', () => {
    it.each([
      ['country_code', 'DE', 'invalid_format'],
      ['country_code', 'XYZ', 'invalid_format'],
      ['latitude', '90.5', 'out_of_range'],
      ['latitude', 'north', 'invalid_format'],
      ['longitude', '-180.01', 'out_of_range'],
      ['height', '1.234', 'invalid_format'],
      ['support_hotline', '040 1234567', 'invalid_format'],
      ['website', 'ftp://files.example.com', 'invalid_format'],
      ['website', 'not a url', 'invalid_format'],
      ['status', 'open', 'invalid_value'],
      ['contract_id', 1.5, 'invalid_type'],
      ['contract_id', -1, 'out_of_range'],
      ['publish', 'yes', 'invalid_type'],
      ['modification_date', '2025-02-30', 'invalid_format'],
      ['name', '', 'invalid_length'],
      ['surprise', 1, 'unknown_field'],
    ])('refuses %s = %j with 422 (%s)', async (parameter, value, errorKey) => {
      const { error, response } = await createLocation(invalid({ name: 'Checked', [parameter]: value }));
      expect(response.status).toBe(422);
      expect(issuesOf(error)).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('requires a name, names every problem, and refuses facility types not in the catalogue', async () => {
      const { error, response } = await createLocation(invalid({ latitude: '100', country_code: 'xx' }));
      expect(response.status).toBe(422);
      expect(
        issuesOf(error)
          .map((issue) => issue.parameter)
          .sort(),
      ).toEqual(['country_code', 'latitude', 'name']);
      const unknown = await createLocation({ name: 'x', facility_types: [{ uuid: randomUUID() }] });
      expect(unknown.response.status).toBe(422);
      expect(issuesOf(unknown.error)[0]).toMatchObject({
        parameter: 'facility_types',
        errorKey: 'not_found',
      });
    });

    it('normalises what it can: lower-case country codes, numbers for coordinates, spaced phone numbers', async () => {
      // Untyped escape for the coordinates: the document asks for decimal strings; numbers are taken too.
      const { data: body, response } = await createLocation(
        invalid({
          name: 'Lenient',
          country_code: 'aut',
          latitude: 47.0707,
          longitude: 15.4395,
          support_hotline: '+43 316 123 456',
        }),
      );
      expect(response.status).toBe(201);
      expect(body!.location).toMatchObject({
        country_code: 'AUT',
        latitude: '47.0707',
        longitude: '15.4395',
        support_hotline: '+43316123456',
      });
    });

    it('updates only what was sent, clears nullable fields with null and refuses null for required ones', async () => {
      const created = await data.fullLocation();
      const patch = (body: Schemas['UpdateLocationBody']) =>
        ops.api.PATCH('/api/v1/assets/locations/{uuid}', { params: { path: { uuid: created.uuid } }, body });
      const patched = await patch({ city: 'Altona', street: null });
      expect(patched.response.status).toBe(200);
      expect(patched.data!.location).toMatchObject({
        city: 'Altona',
        name: created.name,
        height: '8.50',
      });
      expect(patched.data!.location).not.toHaveProperty('street');
      const refused = await patch(invalid({ name: null, status: 'active' }));
      expect(refused.response.status).toBe(422);
      expect(issuesOf(refused.error)[0]).toMatchObject({ parameter: 'name' });
      expect((await readLocation(created.uuid)).data!.location.status).toBe('in_questioning');
    });
  });

  describe('lists', () => {
    const listLocations = (query: NonNullable<operations['listLocations']['parameters']['query']>) =>
      ops.api.GET('/api/v1/assets/locations', { params: { query } });
    const listLocationsRaw = (query: string) => ops.api.GET('/api/v1/assets/locations', rawQuery(query));
    const names = (body: Schemas['LocationListResponse'] | undefined) =>
      body!.locations.map((location) => location.name);

    it('pages with the spec pagination object, sorts and filters', async () => {
      const city = unique('Town');
      for (const name of ['charlie', 'alpha', 'bravo'])
        await data.location({ name, city, status: 'planned' });
      const first = await listLocations({ 'filter[city]': city, order_by: '+name', limit: 2 });
      expect(first.response.status).toBe(200);
      expect(names(first.data)).toEqual(['alpha', 'bravo']);
      expect(first.data!.pagination).toEqual({
        page: 1,
        total_pages: 2,
        page_size: 2,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      // An unencoded + (a space once decoded) is read as +.
      const second = await listLocationsRaw(`filter[city]=${city}&order_by=+name&limit=2&page=2`);
      expect(names(second.data)).toEqual(['charlie']);
      expect(second.data!.pagination).toEqual({
        page: 2,
        total_pages: 2,
        page_size: 2,
        has_more: false,
        cursor: { prev: expect.any(String) },
      });
      const newest = await listLocations({ 'filter[city]': city, 'filter[name]': 'AR' });
      expect(names(newest.data)).toEqual(['charlie']);
    });

    it('answers an empty array, never null, when nothing matches', async () => {
      const nothing = { params: { query: { 'filter[name]': unique('nothing') } } };
      const empties = [
        ['locations', await ops.api.GET('/api/v1/assets/locations', nothing)],
        ['controllers', await ops.api.GET('/api/v1/assets/controllers', nothing)],
        ['sensors', await ops.api.GET('/api/v1/assets/sensors', nothing)],
        ['facility_types', await ops.api.GET('/api/v1/assets/facility-types', nothing)],
      ] as const;
      for (const [key, { data: body, response }] of empties) {
        expect(response.status).toBe(200);
        expect((body as Record<string, unknown>)[key]).toEqual([]);
        // The facility-type catalogue is numbered pages only; the other lists carry cursors (none here).
        const cursor = key === 'facility_types' ? {} : { cursor: {} };
        expect(body!.pagination).toEqual({
          page: 1,
          total_pages: 1,
          page_size: 20,
          has_more: false,
          ...cursor,
        });
      }
      const plugs = await ops.api.GET('/api/v1/assets/plugs', {
        params: { query: { 'filter[controller_uuid]': randomUUID() } },
      });
      expect(plugs.data).toEqual({
        plugs: [],
        pagination: { page: 1, total_pages: 1, page_size: 20, has_more: false, cursor: {} },
      });
    });

    it.each([
      ['limit=0', 'limit', 'out_of_range'],
      ['limit=51', 'limit', 'out_of_range'],
      ['limit=ten', 'limit', 'invalid_type'],
      ['page=0', 'page', 'out_of_range'],
      ['order_by=created_at', 'order_by', 'invalid_format'],
      ['order_by=-city', 'order_by', 'invalid_format'],
      ['filter[status]=open', 'filter[status]', 'invalid_value'],
      ['filter[colour]=red', 'filter[colour]', 'unknown_field'],
      ['filter[facility_type_uuid]=x', 'filter[facility_type_uuid]', 'invalid_uuid'],
    ])('refuses %s with 422 on %s', async (query, parameter, errorKey) => {
      const { error, response } = await listLocationsRaw(query);
      expect(response.status).toBe(422);
      expect(issuesOf(error)).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('filters controllers, plugs and sensors by their parents and live fields', async () => {
      const site = await data.site(2);
      const controllers = await ops.api.GET('/api/v1/assets/controllers', {
        params: { query: { 'filter[location_uuid]': site.location.uuid } },
      });
      expect(controllers.data!.controllers.map((c) => c.uuid)).toEqual([site.controller.uuid]);
      const offline = await ops.api.GET('/api/v1/assets/controllers', {
        params: {
          query: { 'filter[location_uuid]': site.location.uuid, 'filter[connection_status]': 'online' },
        },
      });
      expect(offline.data!.controllers).toEqual([]);
      const plugs = await ops.api.GET('/api/v1/assets/plugs', {
        params: { query: { 'filter[location_uuid]': site.location.uuid, order_by: '-connector_id' } },
      });
      expect(plugs.data!.plugs.map((p) => p.connector_id)).toEqual([2, 1]);
      const unknown = await ops.api.GET('/api/v1/assets/plugs', {
        params: { query: { 'filter[controller_uuid]': site.controller.uuid, 'filter[status]': 'unknown' } },
      });
      expect(unknown.data!.plugs).toHaveLength(2);
      const sensors = await ops.api.GET('/api/v1/assets/sensors', {
        params: { query: { 'filter[controller_uuid]': site.controller.uuid } },
      });
      expect(sensors.data!.sensors.map((s) => s.uuid)).toEqual([site.sensors[1].uuid]);
    });
  });

  describe('controllers, plugs and sensors', () => {
    const createController = (body: Schemas['CreateControllerBody'], as: PlatformClient = ops) =>
      as.api.POST('/api/v1/assets/controllers', { body });
    const createPlug = (body: Schemas['CreatePlugBody'], as: PlatformClient = ops) =>
      as.api.POST('/api/v1/assets/plugs', { body });
    const createSensor = (body: Schemas['CreateSensorBody'], as: PlatformClient = ops) =>
      as.api.POST('/api/v1/assets/sensors', { body });

    it('registers a controller with write-only password and read-only live state', async () => {
      const location = await data.location();
      const { data: body, response } = await createController({
        location_uuid: location.uuid,
        name: 'Bay 1',
        ocpp_identity: 'ACME-Bay_1.main',
        ocpp_password: OCPP_PASSWORD,
        security_profile: 2,
      });
      expect(response.status).toBe(201);
      expect(body!.controller).toEqual({
        uuid: expect.any(String),
        location_uuid: location.uuid,
        name: 'Bay 1',
        ocpp_identity: 'ACME-Bay_1.main',
        security_profile: 2,
        has_ocpp_password: true,
        connection_status: 'offline',
        ocpp_protocol: undefined,
        last_seen_at: undefined,
        vendor: undefined,
        model: undefined,
        serial_number: undefined,
        firmware_version: undefined,
        firmware_status: undefined,
        firmware_status_at: undefined,
        diagnostics_status: undefined,
        diagnostics_status_at: undefined,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      });
      const uuid = body!.controller.uuid;
      const read = await readOne(ops, 'controllers', uuid);
      expect(JSON.stringify(read.data)).not.toContain(OCPP_PASSWORD);
      // Untyped escape: the live state is no field of the update body.
      const live = await ops.api.PATCH('/api/v1/assets/controllers/{uuid}', {
        params: { path: { uuid } },
        body: invalid<Schemas['UpdateControllerBody']>({ connection_status: 'online' }),
      });
      expect(live.response.status).toBe(422);
      expect(issuesOf(live.error)[0]).toMatchObject({
        parameter: 'connection_status',
        errorKey: 'unknown_field',
      });
    });

    it.each([
      [{ ocpp_identity: 'site/1' }, 'ocpp_identity', 'invalid_format'],
      [{ ocpp_identity: 'a:b' }, 'ocpp_identity', 'invalid_format'],
      [{ ocpp_identity: 'x'.repeat(49) }, 'ocpp_identity', 'invalid_format'],
      [{ ocpp_password: 'short-secret-15' }, 'ocpp_password', 'invalid_length'],
      [{ ocpp_password: 'p'.repeat(41) }, 'ocpp_password', 'invalid_length'],
      [{ ocpp_password: 'sixteen chars ok!' }, 'ocpp_password', 'invalid_format'],
      [{ ocpp_password: undefined }, 'ocpp_password', 'required'],
      [{ security_profile: 4 }, 'security_profile', 'invalid_value'],
      [{ location_uuid: randomUUID() }, 'location_uuid', 'not_found'],
    ])('refuses a controller with %j (422 on %s)', async (change, parameter, errorKey) => {
      const location = await data.location();
      const { error, response } = await createController(
        invalid({
          location_uuid: location.uuid,
          name: 'x',
          ocpp_identity: unique('CP'),
          ocpp_password: OCPP_PASSWORD,
          ...change,
        }),
      );
      expect(response.status).toBe(422);
      expect(issuesOf(error)).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('keeps OCPP identities unique per tenant (case-insensitively) and connector ids unique per controller', async () => {
      const location = await data.location();
      const identity = unique('Unique');
      const controller = await data.controller(location.uuid, { ocpp_identity: identity });
      const clash = await createController({
        location_uuid: location.uuid,
        name: 'twin',
        ocpp_identity: identity.toUpperCase(),
        ocpp_password: OCPP_PASSWORD,
      });
      expect(clash.response.status).toBe(422);
      expect(issuesOf(clash.error)[0]).toMatchObject({
        parameter: 'ocpp_identity',
        errorKey: 'already_exists',
      });
      const elsewhere = await rivalData.location();
      await expect(rivalData.controller(elsewhere.uuid, { ocpp_identity: identity })).resolves.toBeDefined();

      const plug = await data.plug(controller.uuid, 1);
      expect(plug).toMatchObject({
        connector_id: 1,
        evse_id: 1,
        status: 'unknown',
      });
      expect(plug).not.toHaveProperty('status_updated_at');
      const twin = await createPlug({ ...plugBody(controller.uuid), connector_id: 1 });
      expect(twin.response.status).toBe(422);
      expect(issuesOf(twin.error)[0]).toMatchObject({
        parameter: 'connector_id',
        errorKey: 'already_exists',
      });
      const zero = await createPlug({ ...plugBody(controller.uuid), connector_id: 0 });
      expect(issuesOf(zero.error)[0]).toMatchObject({ parameter: 'connector_id', errorKey: 'out_of_range' });
      const moved = await ops.api.PATCH('/api/v1/assets/plugs/{uuid}', {
        params: { path: { uuid: plug.uuid } },
        body: { connector_id: 3, evse_id: 2, max_power_kw: 11 },
      });
      expect(moved.data!.plug).toMatchObject({ connector_id: 3, evse_id: 2, max_power_kw: 11 });
    });

    it('attaches a sensor to exactly one of a location and a controller', async () => {
      const site = await data.site(0);
      const both = await createSensor({
        kind: 'smoke',
        name: 's',
        location_uuid: site.location.uuid,
        controller_uuid: site.controller.uuid,
      });
      expect(both.response.status).toBe(422);
      const neither = await createSensor({ kind: 'smoke', name: 's' });
      expect(neither.response.status).toBe(422);
      const kind = await createSensor(
        invalid({ kind: 'radar', name: 's', location_uuid: site.location.uuid }),
      );
      expect(issuesOf(kind.error)[0]).toMatchObject({ parameter: 'kind', errorKey: 'invalid_value' });
      const renamed = await ops.api.PATCH('/api/v1/assets/sensors/{uuid}', {
        params: { path: { uuid: site.sensors[0].uuid } },
        body: { name: 'Bay sensor', serial_number: 'S-9' },
      });
      expect(renamed.data!.sensor).toMatchObject({
        name: 'Bay sensor',
        serial_number: 'S-9',
        location_uuid: site.location.uuid,
      });
    });
  });

  describe('DELETE /assets/{kind}/{uuid}', () => {
    it('answers 200 {} for locations, controllers and plugs and 204 with no body for sensors', async () => {
      const site = await data.site(1);
      const sensor = await deleteOne(ops, 'sensors', site.sensors[0].uuid);
      expect(sensor.response.status).toBe(204);
      expect(sensor.data).toBeUndefined();
      expect(await sensor.response.text()).toBe('');
      const plug = await deleteOne(ops, 'plugs', site.plugs[0].uuid);
      expect([plug.response.status, plug.data]).toEqual([200, {}]);
      const controller = await deleteOne(ops, 'controllers', site.controller.uuid);
      expect([controller.response.status, controller.data]).toEqual([200, {}]);
      const location = await deleteOne(ops, 'locations', site.location.uuid);
      expect([location.response.status, location.data]).toEqual([200, {}]);
      for (const [kind, uuid] of [
        ['sensors', site.sensors[0].uuid],
        ['plugs', site.plugs[0].uuid],
        ['controllers', site.controller.uuid],
        ['locations', site.location.uuid],
      ] as const) {
        const again = await deleteOne(ops, kind, uuid);
        expect([again.response.status, again.error]).toEqual([404, { error: expect.any(String) }]);
      }
    });

    it('refuses sensor uuids that are not lower-case version-4 UUIDs, and other malformed uuids, with 422', async () => {
      const sensor = await data.sensor({ location_uuid: (await data.location()).uuid });
      for (const uuid of [sensor.uuid.toUpperCase(), '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'sensor-1']) {
        const { error, response } = await deleteOne(ops, 'sensors', uuid);
        expect(response.status).toBe(422);
        expect(issuesOf(error)).toEqual([
          { errorKey: 'invalid_uuid', message: expect.any(String), parameter: 'uuid' },
        ]);
      }
      for (const kind of ['locations', 'controllers', 'plugs'] as const) {
        const { error, response } = await deleteOne(ops, kind, '12345');
        expect(response.status).toBe(422);
        expect(issuesOf(error)[0].parameter).toBe('uuid');
      }
      expect((await deleteOne(ops, 'sensors', randomUUID())).response.status).toBe(404);
      expect((await readOne(ops, 'sensors', sensor.uuid)).response.status).toBe(200);
    });

    it('refuses to delete a location that still has controllers (422 has_dependents)', async () => {
      const site = await data.site(1);
      const refused = await deleteOne(ops, 'locations', site.location.uuid);
      expect(refused.response.status).toBe(422);
      expect(issuesOf(refused.error)).toEqual([
        { errorKey: 'has_dependents', message: expect.any(String), parameter: 'uuid' },
      ]);
      expect((await readLocation(site.location.uuid)).response.status).toBe(200);
    });

    it('deletes a controller with its plugs and attached sensors, and tells the gateway to disconnect it', async () => {
      const deleted: ControllerDeletedEvent[] = [];
      await events.consume(
        {
          durableName: `e2e-controller-deleted-${randomUUID()}`,
          filterSubject: AssetsSubjects.controllerDeleted,
        },
        (_subject, event) => {
          deleted.push(event as ControllerDeletedEvent);
          return Promise.resolve();
        },
      );
      const site = await data.site(2);
      expect((await deleteOne(ops, 'controllers', site.controller.uuid)).response.status).toBe(200);
      for (const [kind, uuid] of [
        ['controllers', site.controller.uuid],
        ['plugs', site.plugs[0].uuid],
        ['plugs', site.plugs[1].uuid],
        ['sensors', site.sensors[1].uuid],
      ] as const) {
        expect((await readOne(ops, kind, uuid)).response.status).toBe(404);
      }
      expect((await readOne(ops, 'sensors', site.sensors[0].uuid)).response.status).toBe(200);
      const location = await readLocation(site.location.uuid);
      expect(location.data!.location).toMatchObject({ controllers: [], charge_point_count: 0 });
      const [event] = await eventually(
        () =>
          Promise.resolve(
            deleted.filter((candidate) => candidate.data.controllerUuid === site.controller.uuid),
          ),
        (found) => found.length === 1,
      );
      expect(event).toMatchObject({
        tenantUuid: acme.uuid,
        data: { ocppIdentity: site.controller.ocpp_identity, locationUuid: site.location.uuid },
      });
      expect((await deleteOne(ops, 'locations', site.location.uuid)).response.status).toBe(200);
      expect((await readOne(ops, 'sensors', site.sensors[0].uuid)).response.status).toBe(404);
    });
  });

  describe('permissions and the usual refusals', () => {
    it('answers 401 without a token, 403 without the permission, 405 for other methods', async () => {
      const location = await data.location();
      // Untyped escape: the SDK always signs its requests; this one carries no token at all.
      const anonymous = await api.call('GET', `/api/v1/assets/locations/${location.uuid}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: expect.any(String) });
      expect((await readLocation(location.uuid, viewer)).response.status).toBe(200);
      const attempts: [string, () => Promise<{ error?: unknown; response: Response }>][] = [
        ['DELETE location', () => deleteOne(viewer, 'locations', location.uuid)],
        ['DELETE controller', () => deleteOne(viewer, 'controllers', randomUUID())],
        ['DELETE plug', () => deleteOne(viewer, 'plugs', randomUUID())],
        ['DELETE sensor', () => deleteOne(viewer, 'sensors', randomUUID())],
        ['GET locations', () => viewer.api.GET('/api/v1/assets/locations')],
        ['POST locations', () => createLocation({ name: 'x' }, viewer)],
        ['PATCH location', () => renameOne(viewer, 'locations', location.uuid, 'x')],
        ['GET sensors', () => viewer.api.GET('/api/v1/assets/sensors')],
      ];
      for (const [label, attempt] of attempts) {
        const { error, response } = await attempt();
        expect([label, response.status]).toEqual([label, 403]);
        expect(error).toEqual({ error: expect.any(String) });
      }
      // Untyped escape: PUT is no operation of the document, so the typed client has no such call.
      const put = await api.call('PUT', `/api/v1/assets/locations/${location.uuid}`, {
        token: opsToken,
        body: { name: 'x' },
      });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toContain('DELETE');
    });

    it('answers 429 once a caller exceeds the rate limit', async () => {
      const limited = (await userWith('acme', 'hammer', 'asset:locations:read')).sdk;
      let refused: Awaited<ReturnType<typeof readLocation>> | undefined;
      // The window is fixed, so a window boundary during the loop may let up to twice the limit through.
      for (let batch = 0; batch < (2 * RATE_LIMIT) / 20 + 1 && !refused; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => readLocation(randomUUID(), limited)),
        );
        expect(responses.every(({ response }) => [404, 429].includes(response.status))).toBe(true);
        refused = responses.find(({ response }) => response.status === 429);
      }
      expect(refused?.error).toEqual({ error: expect.any(String) });
      expect(Number(refused?.response.headers.get('retry-after'))).toBeGreaterThan(0);
      // A role and a user made with the admin CLI (a process each) first: more than the default on a busy machine.
    }, 180_000);
  });

  describe('tenant isolation', () => {
    it("hides another tenant's assets on every route, list filters included", async () => {
      const site = await data.site(1);
      const targets: [Kind, string][] = [
        ['locations', site.location.uuid],
        ['controllers', site.controller.uuid],
        ['plugs', site.plugs[0].uuid],
        ['sensors', site.sensors[0].uuid],
      ];
      for (const [kind, uuid] of targets) {
        for (const [method, attempt] of [
          ['GET', () => readOne(rival, kind, uuid)],
          ['PATCH', () => renameOne(rival, kind, uuid, 'mine now')],
          ['DELETE', () => deleteOne(rival, kind, uuid)],
        ] as const) {
          const { error, response } = await attempt();
          expect([kind, method, response.status]).toEqual([kind, method, 404]);
          expect(error).toEqual({ error: expect.any(String) });
        }
      }
      const lists: [string, Promise<{ data?: object; response: Response }>][] = [
        [
          'locations by name',
          rival.api.GET('/api/v1/assets/locations', {
            params: { query: { 'filter[name]': site.location.name } },
          }),
        ],
        [
          'controllers by location',
          rival.api.GET('/api/v1/assets/controllers', {
            params: { query: { 'filter[location_uuid]': site.location.uuid } },
          }),
        ],
        [
          'controllers by identity',
          rival.api.GET('/api/v1/assets/controllers', {
            params: { query: { 'filter[ocpp_identity]': site.controller.ocpp_identity } },
          }),
        ],
        [
          'plugs by controller',
          rival.api.GET('/api/v1/assets/plugs', {
            params: { query: { 'filter[controller_uuid]': site.controller.uuid } },
          }),
        ],
        [
          'plugs by location',
          rival.api.GET('/api/v1/assets/plugs', {
            params: { query: { 'filter[location_uuid]': site.location.uuid } },
          }),
        ],
        [
          'sensors by location',
          rival.api.GET('/api/v1/assets/sensors', {
            params: { query: { 'filter[location_uuid]': site.location.uuid } },
          }),
        ],
        [
          'sensors by controller',
          rival.api.GET('/api/v1/assets/sensors', {
            params: { query: { 'filter[controller_uuid]': site.controller.uuid } },
          }),
        ],
      ];
      for (const [label, request] of lists) {
        const { data: body, response } = await request;
        const kind = label.split(' ')[0];
        expect([label, response.status, (body as Record<string, unknown>)[kind]]).toEqual([label, 200, []]);
      }
      const all = await rival.api.GET('/api/v1/assets/locations', { params: { query: { limit: 50 } } });
      expect(all.data!.locations.map((location) => location.uuid)).not.toContain(site.location.uuid);
      const attach: [string, () => Promise<{ error?: unknown; response: Response }>, string][] = [
        [
          'controllers',
          () =>
            rival.api.POST('/api/v1/assets/controllers', {
              body: {
                location_uuid: site.location.uuid,
                name: 'x',
                ocpp_identity: unique('R'),
                ocpp_password: OCPP_PASSWORD,
              },
            }),
          'location_uuid',
        ],
        [
          'plugs',
          () => rival.api.POST('/api/v1/assets/plugs', { body: plugBody(site.controller.uuid) }),
          'controller_uuid',
        ],
        [
          'sensors',
          () =>
            rival.api.POST('/api/v1/assets/sensors', {
              body: { kind: 'other', name: 'x', location_uuid: site.location.uuid },
            }),
          'location_uuid',
        ],
        [
          'sensors',
          () =>
            rival.api.POST('/api/v1/assets/sensors', {
              body: { kind: 'other', name: 'x', controller_uuid: site.controller.uuid },
            }),
          'controller_uuid',
        ],
      ];
      for (const [kind, attempt, parameter] of attach) {
        const { error, response } = await attempt();
        expect([kind, response.status]).toEqual([kind, 422]);
        expect(issuesOf(error)[0]).toMatchObject({ parameter, errorKey: 'not_found' });
      }
      const facility = await data.facilityType();
      const borrowed = await createLocation({ name: 'x', facility_types: [{ uuid: facility.uuid }] }, rival);
      expect(borrowed.response.status).toBe(422);
      const catalogue = await rival.api.GET('/api/v1/assets/facility-types', {
        params: { query: { limit: 50 } },
      });
      expect(catalogue.data!.facility_types.map((type) => type.uuid)).not.toContain(facility.uuid);
      // Everything is still there for its owner.
      for (const [kind, uuid] of targets) expect((await readOne(ops, kind, uuid)).response.status).toBe(200);
    });
  });
  describe('live state from charge-point events', () => {
    const envelope = (
      controller: ControllerView,
      at: Date,
      data: object,
      tenantUuid?: string,
    ): EventEnvelope<object> => ({
      eventId: randomUUID(),
      occurredAt: at.toISOString(),
      tenantUuid: tenantUuid ?? acme.uuid,
      data: { controllerUuid: controller.uuid, ocppIdentity: controller.ocpp_identity, ...data },
    });
    const seconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

    it('updates the controller and its plugs, ignoring older and foreign events', async () => {
      const site = await data.site(2);
      const { controller } = site;
      const t0 = Date.now() - 120_000;
      const at = (offset: number) => new Date(t0 + offset * 1000);
      const status = (offset: number, connectorId: number, value: string) => ({
        connectorId,
        evseId: null,
        status: value,
        errorCode: 'NoError',
        reportedAt: at(offset).toISOString(),
      });
      await events.publish(
        ChargePointEventSubjects.connected,
        envelope(controller, at(1), {
          protocol: 'ocpp1.6',
          gatewayInstance: 'gw-a',
          connectedAt: at(1).toISOString(),
          connectionId: 'conn-1',
        }),
      );
      await events.publish(
        ChargePointEventSubjects.booted,
        envelope(controller, at(2), {
          vendor: 'ACME',
          model: 'Wallbox 22',
          serialNumber: 'SN-0042',
          firmwareVersion: '4.2.0',
        }),
      );
      await events.publish(
        ChargePointEventSubjects.connectorStatus,
        envelope(controller, at(3), status(3, 1, 'Charging')),
      );
      await events.publish(
        ChargePointEventSubjects.connectorStatus,
        envelope(controller, at(2), status(2, 1, 'Available')),
      );
      await events.publish(
        ChargePointEventSubjects.connectorStatus,
        envelope(controller, at(4), status(4, 2, 'Faulted')),
      );
      await events.publish(
        ChargePointEventSubjects.connectorStatus,
        envelope(controller, at(5), status(5, 2, 'Available'), randomUUID()),
      );

      const plugs = await eventually(
        async () =>
          (
            await ops.api.GET('/api/v1/assets/plugs', {
              params: { query: { 'filter[controller_uuid]': controller.uuid, order_by: '+connector_id' } },
            })
          ).data!.plugs,
        (found) => found[0]?.status === 'Charging' && found[1]?.status === 'Faulted',
      );
      expect(plugs[0].status_updated_at).toBe(seconds(at(3)));
      const readController = () =>
        ops.api.GET('/api/v1/assets/controllers/{uuid}', { params: { path: { uuid: controller.uuid } } });
      const live = await readController();
      expect(live.data!.controller).toMatchObject({
        connection_status: 'online',
        ocpp_protocol: 'ocpp1.6',
        last_seen_at: seconds(at(4)),
        vendor: 'ACME',
        model: 'Wallbox 22',
        serial_number: 'SN-0042',
        firmware_version: '4.2.0',
      });
      const online = await ops.api.GET('/api/v1/assets/controllers', {
        params: {
          query: { 'filter[connection_status]': 'online', 'filter[location_uuid]': site.location.uuid },
        },
      });
      expect(online.data!.controllers).toHaveLength(1);

      await events.publish(
        ChargePointEventSubjects.disconnected,
        envelope(controller, at(6), {
          gatewayInstance: 'gw-a',
          disconnectedAt: at(6).toISOString(),
          reason: 'closed',
          connectionId: 'conn-1',
        }),
      );
      const offline = await eventually(
        async () => (await readController()).data!.controller,
        (view) => view.connection_status === 'offline',
      );
      expect(offline).toMatchObject({ vendor: 'ACME', last_seen_at: seconds(at(4)) });
    });
  });
});

function plugBody(controllerUuid: string): Schemas['CreatePlugBody'] {
  return {
    controller_uuid: controllerUuid,
    connector_id: 9,
    standard: 'chademo',
    power_type: 'dc',
    max_power_kw: 50,
  };
}
