import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  type ControllerDeletedEvent,
  type ControllerView,
  type EventEnvelope,
  type PlugView,
} from '@cpc/contracts';
import { JetStreamEventBus } from '@cpc/nats';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  fullLocationBody,
  OCPP_PASSWORD,
  type PlatformUnderTest,
  startPlatformUnderTest,
  unique,
  usersWithRoles,
} from '@cpc/testing';

const RATE_LIMIT = 400;

describe('assets API: locations, controllers, plugs, sensors', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let nats: NatsConnection;
  let events: JetStreamEventBus;
  let acme: { uuid: string };
  let ops: string;
  let rival: string;
  let viewer: string;
  let data: AssetsTestData;
  let rivalData: AssetsTestData;

  const call = (method: string, path: string, body?: unknown, token = ops) =>
    api.call(method, `/api/v1/assets/${path}`, { token, ...(body === undefined ? {} : { body }) });

  async function userWith(tenant: string, role: string, permissions: string): Promise<string> {
    return (await usersWithRoles(platform, api, tenant, { [role]: permissions }))[role];
  }

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['auth-service', 'assets-service', 'api-gateway'],
      env: { API_RATE_LIMIT_PER_SUBJECT: String(RATE_LIMIT) },
    });
    api = await ApiTestClient.connect(platform.apiUrl);
    nats = await connect(platform.natsTestClientOptions);
    events = new JetStreamEventBus(nats);
    acme = await platform.admin(['tenant:create', '--slug', 'acme']);
    await platform.admin(['tenant:create', '--slug', 'rival']);
    ops = await userWith('acme', 'operator', 'asset');
    viewer = await userWith('acme', 'viewer', 'asset:locations:read,asset:controllers:list');
    rival = await userWith('rival', 'operator', 'asset');
    data = new AssetsTestData(api, ops);
    rivalData = new AssetsTestData(api, rival);
  }, 180_000);

  afterAll(async () => {
    await events?.onApplicationShutdown();
    await nats?.drain();
    await platform?.stop();
  });

  describe('GET /assets/locations/{uuid}', () => {
    it('answers every field of the spec, each in its format', async () => {
      const parking = await data.facilityType();
      const created = await data.fullLocation({ facility_types: [{ uuid: parking.uuid }] });
      const response = await call('GET', `locations/${created.uuid}`);
      expect(response.status).toBe(200);
      const location = response.body.location;
      expect(Object.keys(response.body)).toEqual(['location']);
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
      for (const field of ['created_at', 'updated_at', 'modification_date']) {
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
      const { body } = await call('GET', `locations/${location.uuid}`);
      expect(body.location.charge_point_count).toBe(3);
      expect(body.location.controllers).toHaveLength(3);
      expect(body.location.controllers).toEqual(
        expect.arrayContaining([{ controller_uuid: first.uuid }, { controller_uuid: second.uuid }]),
      );
    });

    it('leaves out what was never recorded, and answers the defaults', async () => {
      const created = await data.location({ name: 'Bare' });
      const { body } = await call('GET', `locations/${created.uuid}`);
      expect(body.location).toMatchObject({
        name: 'Bare',
        status: 'active',
        publish: false,
        modification_date: body.location.created_at,
        controllers: [],
        facility_types: [],
      });
      for (const unset of ['street', 'latitude', 'height', 'website', 'contract_id'])
        expect(body.location).not.toHaveProperty(unset);
    });

    it('answers 404 for a missing location and 422 for a path that is not a UUID', async () => {
      const missing = await call('GET', `locations/${randomUUID()}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: expect.any(String) });
      const malformed = await call('GET', 'locations/not-a-uuid');
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors).toEqual([
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
      const response = await call('POST', 'locations', { name: 'Checked', [parameter]: value });
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('requires a name, names every problem, and refuses facility types not in the catalogue', async () => {
      const response = await call('POST', 'locations', { latitude: '100', country_code: 'xx' });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((issue: { parameter: string }) => issue.parameter).sort()).toEqual([
        'country_code',
        'latitude',
        'name',
      ]);
      const unknown = await call('POST', 'locations', {
        name: 'x',
        facility_types: [{ uuid: randomUUID() }],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0]).toMatchObject({ parameter: 'facility_types', errorKey: 'not_found' });
    });

    it('normalises what it can: lower-case country codes, numbers for coordinates, spaced phone numbers', async () => {
      const response = await call('POST', 'locations', {
        name: 'Lenient',
        country_code: 'aut',
        latitude: 47.0707,
        longitude: 15.4395,
        support_hotline: '+43 316 123 456',
      });
      expect(response.status).toBe(201);
      expect(response.body.location).toMatchObject({
        country_code: 'AUT',
        latitude: '47.0707',
        longitude: '15.4395',
        support_hotline: '+43316123456',
      });
    });

    it('updates only what was sent, clears nullable fields with null and refuses null for required ones', async () => {
      const created = await data.fullLocation();
      const patched = await call('PATCH', `locations/${created.uuid}`, { city: 'Altona', street: null });
      expect(patched.status).toBe(200);
      expect(patched.body.location).toMatchObject({
        city: 'Altona',
        name: created.name,
        height: '8.50',
      });
      expect(patched.body.location).not.toHaveProperty('street');
      const refused = await call('PATCH', `locations/${created.uuid}`, { name: null, status: 'active' });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ parameter: 'name' });
      expect((await call('GET', `locations/${created.uuid}`)).body.location.status).toBe('in_questioning');
    });
  });

  describe('lists', () => {
    it('pages with the spec pagination object, sorts and filters', async () => {
      const city = unique('Town');
      for (const name of ['charlie', 'alpha', 'bravo'])
        await data.location({ name, city, status: 'planned' });
      const first = await call('GET', `locations?filter[city]=${city}&order_by=%2Bname&limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.locations.map((location: { name: string }) => location.name)).toEqual([
        'alpha',
        'bravo',
      ]);
      expect(first.body.pagination).toEqual({ page: 1, total_pages: 2, page_size: 2, has_more: true });
      const second = await call('GET', `locations?filter[city]=${city}&order_by=+name&limit=2&page=2`);
      expect(second.body.locations.map((location: { name: string }) => location.name)).toEqual(['charlie']);
      expect(second.body.pagination).toEqual({ page: 2, total_pages: 2, page_size: 2, has_more: false });
      const newest = await call('GET', `locations?filter[city]=${city}&filter[name]=AR`);
      expect(newest.body.locations.map((location: { name: string }) => location.name)).toEqual(['charlie']);
    });

    it('answers an empty array, never null, when nothing matches', async () => {
      for (const kind of ['locations', 'controllers', 'sensors', 'facility-types']) {
        const response = await call('GET', `${kind}?filter[name]=${unique('nothing')}`);
        expect(response.status).toBe(200);
        expect(response.body[kind.replace('-', '_')]).toEqual([]);
        expect(response.body.pagination).toEqual({ page: 1, total_pages: 1, page_size: 20, has_more: false });
      }
      const plugs = await call('GET', `plugs?filter[controller_uuid]=${randomUUID()}`);
      expect(plugs.body).toEqual({
        plugs: [],
        pagination: { page: 1, total_pages: 1, page_size: 20, has_more: false },
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
      const response = await call('GET', `locations?${query}`);
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('filters controllers, plugs and sensors by their parents and live fields', async () => {
      const site = await data.site(2);
      const controllers = await call('GET', `controllers?filter[location_uuid]=${site.location.uuid}`);
      expect(controllers.body.controllers.map((c: ControllerView) => c.uuid)).toEqual([site.controller.uuid]);
      const offline = await call(
        'GET',
        `controllers?filter[location_uuid]=${site.location.uuid}&filter[connection_status]=online`,
      );
      expect(offline.body.controllers).toEqual([]);
      const plugs = await call(
        'GET',
        `plugs?filter[location_uuid]=${site.location.uuid}&order_by=-connector_id`,
      );
      expect(plugs.body.plugs.map((p: { connector_id: number }) => p.connector_id)).toEqual([2, 1]);
      const unknown = await call(
        'GET',
        `plugs?filter[controller_uuid]=${site.controller.uuid}&filter[status]=unknown`,
      );
      expect(unknown.body.plugs).toHaveLength(2);
      const sensors = await call('GET', `sensors?filter[controller_uuid]=${site.controller.uuid}`);
      expect(sensors.body.sensors.map((s: { uuid: string }) => s.uuid)).toEqual([site.sensors[1].uuid]);
    });
  });

  describe('controllers, plugs and sensors', () => {
    it('registers a controller with write-only password and read-only live state', async () => {
      const location = await data.location();
      const response = await call('POST', 'controllers', {
        location_uuid: location.uuid,
        name: 'Bay 1',
        ocpp_identity: 'ACME-Bay_1.main',
        ocpp_password: OCPP_PASSWORD,
        security_profile: 2,
      });
      expect(response.status).toBe(201);
      expect(response.body.controller).toEqual({
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
      const read = await call('GET', `controllers/${response.body.controller.uuid}`);
      expect(JSON.stringify(read.body)).not.toContain(OCPP_PASSWORD);
      const live = await call('PATCH', `controllers/${response.body.controller.uuid}`, {
        connection_status: 'online',
      });
      expect(live.status).toBe(422);
      expect(live.body.errors[0]).toMatchObject({
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
      const response = await call('POST', 'controllers', {
        location_uuid: location.uuid,
        name: 'x',
        ocpp_identity: unique('CP'),
        ocpp_password: OCPP_PASSWORD,
        ...change,
      });
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({ errorKey, message: expect.any(String), parameter });
    });

    it('keeps OCPP identities unique per tenant (case-insensitively) and connector ids unique per controller', async () => {
      const location = await data.location();
      const identity = unique('Unique');
      const controller = await data.controller(location.uuid, { ocpp_identity: identity });
      const clash = await call('POST', 'controllers', {
        location_uuid: location.uuid,
        name: 'twin',
        ocpp_identity: identity.toUpperCase(),
        ocpp_password: OCPP_PASSWORD,
      });
      expect(clash.status).toBe(422);
      expect(clash.body.errors[0]).toMatchObject({ parameter: 'ocpp_identity', errorKey: 'already_exists' });
      const elsewhere = await rivalData.location();
      await expect(rivalData.controller(elsewhere.uuid, { ocpp_identity: identity })).resolves.toBeDefined();

      const plug = await data.plug(controller.uuid, 1);
      expect(plug).toMatchObject({
        connector_id: 1,
        evse_id: 1,
        status: 'unknown',
      });
      expect(plug).not.toHaveProperty('status_updated_at');
      const twin = await call('POST', 'plugs', { ...plugBody(controller.uuid), connector_id: 1 });
      expect(twin.status).toBe(422);
      expect(twin.body.errors[0]).toMatchObject({ parameter: 'connector_id', errorKey: 'already_exists' });
      const zero = await call('POST', 'plugs', { ...plugBody(controller.uuid), connector_id: 0 });
      expect(zero.body.errors[0]).toMatchObject({ parameter: 'connector_id', errorKey: 'out_of_range' });
      const moved = await call('PATCH', `plugs/${plug.uuid}`, {
        connector_id: 3,
        evse_id: 2,
        max_power_kw: 11,
      });
      expect(moved.body.plug).toMatchObject({ connector_id: 3, evse_id: 2, max_power_kw: 11 });
    });

    it('attaches a sensor to exactly one of a location and a controller', async () => {
      const site = await data.site(0);
      const both = await call('POST', 'sensors', {
        kind: 'smoke',
        name: 's',
        location_uuid: site.location.uuid,
        controller_uuid: site.controller.uuid,
      });
      expect(both.status).toBe(422);
      const neither = await call('POST', 'sensors', { kind: 'smoke', name: 's' });
      expect(neither.status).toBe(422);
      const kind = await call('POST', 'sensors', {
        kind: 'radar',
        name: 's',
        location_uuid: site.location.uuid,
      });
      expect(kind.body.errors[0]).toMatchObject({ parameter: 'kind', errorKey: 'invalid_value' });
      const renamed = await call('PATCH', `sensors/${site.sensors[0].uuid}`, {
        name: 'Bay sensor',
        serial_number: 'S-9',
      });
      expect(renamed.body.sensor).toMatchObject({
        name: 'Bay sensor',
        serial_number: 'S-9',
        location_uuid: site.location.uuid,
      });
    });
  });

  describe('DELETE /assets/{kind}/{uuid}', () => {
    it('answers 200 {} for locations, controllers and plugs and 204 with no body for sensors', async () => {
      const site = await data.site(1);
      const sensor = await call('DELETE', `sensors/${site.sensors[0].uuid}`);
      expect(sensor.status).toBe(204);
      expect(sensor.body).toBeUndefined();
      const plug = await call('DELETE', `plugs/${site.plugs[0].uuid}`);
      expect([plug.status, plug.body]).toEqual([200, {}]);
      const controller = await call('DELETE', `controllers/${site.controller.uuid}`);
      expect([controller.status, controller.body]).toEqual([200, {}]);
      const location = await call('DELETE', `locations/${site.location.uuid}`);
      expect([location.status, location.body]).toEqual([200, {}]);
      for (const path of [
        `sensors/${site.sensors[0].uuid}`,
        `plugs/${site.plugs[0].uuid}`,
        `controllers/${site.controller.uuid}`,
        `locations/${site.location.uuid}`,
      ]) {
        const again = await call('DELETE', path);
        expect([again.status, again.body]).toEqual([404, { error: expect.any(String) }]);
      }
    });

    it('refuses sensor uuids that are not lower-case version-4 UUIDs, and other malformed uuids, with 422', async () => {
      const sensor = await data.sensor({ location_uuid: (await data.location()).uuid });
      for (const uuid of [sensor.uuid.toUpperCase(), '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'sensor-1']) {
        const response = await call('DELETE', `sensors/${uuid}`);
        expect(response.status).toBe(422);
        expect(response.body.errors).toEqual([
          { errorKey: 'invalid_uuid', message: expect.any(String), parameter: 'uuid' },
        ]);
      }
      for (const kind of ['locations', 'controllers', 'plugs']) {
        const response = await call('DELETE', `${kind}/12345`);
        expect(response.status).toBe(422);
        expect(response.body.errors[0].parameter).toBe('uuid');
      }
      expect((await call('DELETE', `sensors/${randomUUID()}`)).status).toBe(404);
      expect((await call('GET', `sensors/${sensor.uuid}`)).status).toBe(200);
    });

    it('refuses to delete a location that still has controllers (422 has_dependents)', async () => {
      const site = await data.site(1);
      const refused = await call('DELETE', `locations/${site.location.uuid}`);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        { errorKey: 'has_dependents', message: expect.any(String), parameter: 'uuid' },
      ]);
      expect((await call('GET', `locations/${site.location.uuid}`)).status).toBe(200);
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
      expect((await call('DELETE', `controllers/${site.controller.uuid}`)).status).toBe(200);
      for (const path of [
        `controllers/${site.controller.uuid}`,
        `plugs/${site.plugs[0].uuid}`,
        `plugs/${site.plugs[1].uuid}`,
        `sensors/${site.sensors[1].uuid}`,
      ]) {
        expect((await call('GET', path)).status).toBe(404);
      }
      expect((await call('GET', `sensors/${site.sensors[0].uuid}`)).status).toBe(200);
      const location = await call('GET', `locations/${site.location.uuid}`);
      expect(location.body.location).toMatchObject({ controllers: [], charge_point_count: 0 });
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
      expect((await call('DELETE', `locations/${site.location.uuid}`)).status).toBe(200);
      expect((await call('GET', `sensors/${site.sensors[0].uuid}`)).status).toBe(404);
    });
  });

  describe('permissions and the usual refusals', () => {
    it('answers 401 without a token, 403 without the permission, 405 for other methods', async () => {
      const location = await data.location();
      const anonymous = await api.call('GET', `/api/v1/assets/locations/${location.uuid}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: expect.any(String) });
      expect((await call('GET', `locations/${location.uuid}`, undefined, viewer)).status).toBe(200);
      for (const [method, path] of [
        ['DELETE', `locations/${location.uuid}`],
        ['DELETE', `controllers/${randomUUID()}`],
        ['DELETE', `plugs/${randomUUID()}`],
        ['DELETE', `sensors/${randomUUID()}`],
        ['GET', 'locations'],
        ['POST', 'locations'],
        ['PATCH', `locations/${location.uuid}`],
        ['GET', 'sensors'],
      ]) {
        const response = await call(
          method,
          path,
          method === 'POST' || method === 'PATCH' ? { name: 'x' } : undefined,
          viewer,
        );
        expect([method, path, response.status]).toEqual([method, path, 403]);
        expect(response.body).toEqual({ error: expect.any(String) });
      }
      const put = await call('PUT', `locations/${location.uuid}`, { name: 'x' });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toContain('DELETE');
    });

    it('answers 429 once a caller exceeds the rate limit', async () => {
      const limited = await userWith('acme', 'hammer', 'asset:locations:read');
      let refused: Awaited<ReturnType<typeof call>> | undefined;
      // The window is fixed, so a window boundary during the loop may let up to twice the limit through.
      for (let batch = 0; batch < (2 * RATE_LIMIT) / 20 + 1 && !refused; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => call('GET', `locations/${randomUUID()}`, undefined, limited)),
        );
        expect(responses.every((response) => [404, 429].includes(response.status))).toBe(true);
        refused = responses.find((response) => response.status === 429);
      }
      expect(refused?.body).toEqual({ error: expect.any(String) });
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('tenant isolation', () => {
    it("hides another tenant's assets on every route, list filters included", async () => {
      const site = await data.site(1);
      const targets: [string, string][] = [
        ['locations', site.location.uuid],
        ['controllers', site.controller.uuid],
        ['plugs', site.plugs[0].uuid],
        ['sensors', site.sensors[0].uuid],
      ];
      for (const [kind, uuid] of targets) {
        for (const [method, body] of [['GET'], ['PATCH', { name: 'mine now' }], ['DELETE']] as const) {
          const response = await call(method, `${kind}/${uuid}`, body, rival);
          expect([kind, method, response.status]).toEqual([kind, method, 404]);
          expect(response.body).toEqual({ error: expect.any(String) });
        }
      }
      const lists: [string, string][] = [
        ['locations', `filter[name]=${encodeURIComponent(site.location.name)}`],
        ['controllers', `filter[location_uuid]=${site.location.uuid}`],
        ['controllers', `filter[ocpp_identity]=${site.controller.ocpp_identity}`],
        ['plugs', `filter[controller_uuid]=${site.controller.uuid}`],
        ['plugs', `filter[location_uuid]=${site.location.uuid}`],
        ['sensors', `filter[location_uuid]=${site.location.uuid}`],
        ['sensors', `filter[controller_uuid]=${site.controller.uuid}`],
      ];
      for (const [kind, query] of lists) {
        const response = await call('GET', `${kind}?${query}`, undefined, rival);
        expect([kind, query, response.status, response.body[kind]]).toEqual([kind, query, 200, []]);
      }
      const all = await call('GET', 'locations?limit=50', undefined, rival);
      expect(all.body.locations.map((location: { uuid: string }) => location.uuid)).not.toContain(
        site.location.uuid,
      );
      const attach: [string, Record<string, unknown>, string][] = [
        [
          'controllers',
          {
            location_uuid: site.location.uuid,
            name: 'x',
            ocpp_identity: unique('R'),
            ocpp_password: OCPP_PASSWORD,
          },
          'location_uuid',
        ],
        ['plugs', plugBody(site.controller.uuid), 'controller_uuid'],
        ['sensors', { kind: 'other', name: 'x', location_uuid: site.location.uuid }, 'location_uuid'],
        ['sensors', { kind: 'other', name: 'x', controller_uuid: site.controller.uuid }, 'controller_uuid'],
      ];
      for (const [kind, body, parameter] of attach) {
        const response = await call('POST', kind, body, rival);
        expect(response.status).toBe(422);
        expect(response.body.errors[0]).toMatchObject({ parameter, errorKey: 'not_found' });
      }
      const facility = await data.facilityType();
      const borrowed = await call(
        'POST',
        'locations',
        { name: 'x', facility_types: [{ uuid: facility.uuid }] },
        rival,
      );
      expect(borrowed.status).toBe(422);
      const catalogue = await call('GET', 'facility-types?limit=50', undefined, rival);
      expect(catalogue.body.facility_types.map((type: { uuid: string }) => type.uuid)).not.toContain(
        facility.uuid,
      );
      // Everything is still there for its owner.
      for (const [kind, uuid] of targets) expect((await call('GET', `${kind}/${uuid}`)).status).toBe(200);
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
          (await call('GET', `plugs?filter[controller_uuid]=${controller.uuid}&order_by=%2Bconnector_id`))
            .body.plugs,
        (found: PlugView[]) => found[0]?.status === 'Charging' && found[1]?.status === 'Faulted',
      );
      expect(plugs[0].status_updated_at).toBe(seconds(at(3)));
      const live = await call('GET', `controllers/${controller.uuid}`);
      expect(live.body.controller).toMatchObject({
        connection_status: 'online',
        ocpp_protocol: 'ocpp1.6',
        last_seen_at: seconds(at(4)),
        vendor: 'ACME',
        model: 'Wallbox 22',
        serial_number: 'SN-0042',
        firmware_version: '4.2.0',
      });
      const online = await call(
        'GET',
        `controllers?filter[connection_status]=online&filter[location_uuid]=${site.location.uuid}`,
      );
      expect(online.body.controllers).toHaveLength(1);

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
        async () => (await call('GET', `controllers/${controller.uuid}`)).body.controller,
        (view: ControllerView) => view.connection_status === 'offline',
      );
      expect(offline).toMatchObject({ vendor: 'ACME', last_seen_at: seconds(at(4)) });
    });
  });
});

function plugBody(controllerUuid: string): Record<string, unknown> {
  return {
    controller_uuid: controllerUuid,
    connector_id: 9,
    standard: 'chademo',
    power_type: 'dc',
    max_power_kw: 50,
  };
}
