import { createPlatformClient, type PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  type ChargePoint,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  type PrismProxy,
  type PrismViolation,
  startPlatformUnderTest,
  startPrismProxy,
  tenantWithUsers,
  unique,
  USER_PASSWORD,
} from '@cpc/testing';

/**
 * The typed SDK (libs/sdk) walks the assets and commands routes of the served API through a Prism validation proxy:
 * the walk compiles against the types generated from the committed OpenAPI document (so an API change that breaks
 * generated clients fails the typecheck), and Prism checks every request and answer against that document at run
 * time. Error answers are covered by assets.e2e and commands.e2e; Prism refuses invalid requests before they arrive.
 */
describe('the SDK against the served API, through a Prism validation proxy', () => {
  let platform: PlatformUnderTest;
  let prism: PrismProxy;
  let sdk: PlatformClient;
  const violations: { request: string; found: PrismViolation[] }[] = [];
  const ids = { location: '', facilityType: '', controller: '', plug: '', sensor: '', command: '' };
  let chargePoint: ChargePoint | undefined;

  beforeAll(async () => {
    platform = await startPlatformUnderTest({
      services: ['api-gateway', 'auth-service', 'assets-service', 'command-service', 'ocpp-gateway'],
    });
    const api = await ApiTestClient.connect(platform.apiUrl);
    await tenantWithUsers(platform, api, 'acme', { operator: 'asset,control' });
    prism = await startPrismProxy(platform.apiUrl);
    sdk = createPlatformClient({
      baseUrl: prism.url,
      credentials: { username: 'operator@acme.test', password: USER_PASSWORD, tenant: 'acme' },
      fetch: async (request) => {
        const response = await fetch(request);
        const found = response.headers.get('sl-violations');
        if (found) violations.push({ request: `${request.method} ${request.url}`, found: JSON.parse(found) });
        // A request Prism finds invalid is answered by Prism itself (422, a problem body), without the header.
        if (!found && response.headers.get('content-type')?.startsWith('application/problem+json')) {
          const problem = (await response.clone().json()) as { type?: string; validation?: PrismViolation[] };
          if (problem.type?.startsWith('https://stoplight.io/prism/errors'))
            violations.push({ request: `${request.method} ${request.url}`, found: problem.validation ?? [] });
        }
        return response;
      },
    });
  }, 180_000);

  afterAll(async () => {
    await chargePoint?.close({ force: true });
    await prism?.stop();
    await platform?.stop();
  });

  it('creates, reads, lists and changes a location, a facility type, a controller, a plug and a sensor', async () => {
    const facilityType = await sdk.api.POST('/api/v1/assets/facility-types', {
      body: { name: unique('Garage') },
    });
    expect(facilityType.response.status).toBe(201);
    ids.facilityType = facilityType.data!.facility_type.uuid;

    const location = await sdk.api.POST('/api/v1/assets/locations', {
      body: {
        name: unique('Harbour car park'),
        status: 'active',
        city: 'Hamburg',
        country_code: 'DEU',
        latitude: '53.5436',
        longitude: '9.9883',
        publish: true,
        contract_id: 4711,
        facility_types: [{ uuid: ids.facilityType }],
      },
    });
    expect(location.response.status).toBe(201);
    ids.location = location.data!.location.uuid;

    const read = await sdk.api.GET('/api/v1/assets/locations/{uuid}', {
      params: { path: { uuid: ids.location } },
    });
    expect(read.data?.location).toMatchObject({ city: 'Hamburg', contract_id: 4711 });
    const changed = await sdk.api.PATCH('/api/v1/assets/locations/{uuid}', {
      params: { path: { uuid: ids.location } },
      body: { city: 'Altona' },
    });
    expect(changed.data?.location.city).toBe('Altona');
    const listed = await sdk.api.GET('/api/v1/assets/locations', {
      params: { query: { limit: 10, page: 1, 'filter[city]': 'Altona' } },
    });
    expect(listed.data?.locations.map((each) => each.uuid)).toEqual([ids.location]);
    expect((await sdk.api.GET('/api/v1/assets/facility-types')).response.status).toBe(200);

    const controller = await sdk.api.POST('/api/v1/assets/controllers', {
      body: {
        location_uuid: ids.location,
        name: unique('Wallbox'),
        ocpp_identity: unique('CP'),
        ocpp_password: OCPP_PASSWORD,
      },
    });
    expect(controller.response.status).toBe(201);
    ids.controller = controller.data!.controller.uuid;
    const renamed = await sdk.api.PATCH('/api/v1/assets/controllers/{uuid}', {
      params: { path: { uuid: ids.controller } },
      body: { name: 'Wallbox by the lifts' },
    });
    expect(renamed.data?.controller.name).toBe('Wallbox by the lifts');
    const controllers = await sdk.api.GET('/api/v1/assets/controllers', {
      params: { query: { 'filter[location_uuid]': ids.location } },
    });
    expect(controllers.data?.controllers.map((each) => each.uuid)).toEqual([ids.controller]);

    const plug = await sdk.api.POST('/api/v1/assets/plugs', {
      body: {
        controller_uuid: ids.controller,
        connector_id: 1,
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
      },
    });
    expect(plug.response.status).toBe(201);
    ids.plug = plug.data!.plug.uuid;
    expect(
      (await sdk.api.GET('/api/v1/assets/plugs/{uuid}', { params: { path: { uuid: ids.plug } } })).data?.plug,
    ).toMatchObject({ connector_id: 1 });
    expect((await sdk.api.GET('/api/v1/assets/plugs')).data?.plugs).toHaveLength(1);

    const sensor = await sdk.api.POST('/api/v1/assets/sensors', {
      body: { kind: 'temperature', name: unique('Sensor'), controller_uuid: ids.controller },
    });
    expect(sensor.response.status).toBe(201);
    ids.sensor = sensor.data!.sensor.uuid;
    expect(
      (await sdk.api.GET('/api/v1/assets/sensors/{uuid}', { params: { path: { uuid: ids.sensor } } }))
        .response.status,
    ).toBe(200);
    expect((await sdk.api.GET('/api/v1/assets/sensors')).data?.sensors).toHaveLength(1);
  });

  it('sends typed commands that reach a real charge point, and reads and lists them', async () => {
    const { data: found } = await sdk.api.GET('/api/v1/assets/controllers/{uuid}', {
      params: { path: { uuid: ids.controller } },
    });
    chargePoint = ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity: found!.controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: ['ocpp1.6'],
    });
    chargePoint.handle('Reset', () => ({ status: 'Accepted' }));
    chargePoint.handle('ChangeAvailability', () => ({ status: 'Scheduled' }));
    await chargePoint.connect();
    await eventually(
      () => sdk.api.GET('/api/v1/assets/controllers/{uuid}', { params: { path: { uuid: ids.controller } } }),
      ({ data }) => data?.controller.connection_status === 'online',
    );

    const reset = await sdk.createCommand(
      'soft_reset',
      { target_type: 'controller', target_uuid: ids.controller },
      {},
    );
    expect(reset.response.status).toBe(202);
    const availability = await sdk.createCommand(
      'change_availability',
      { target_type: 'connector', target_uuid: ids.plug },
      { availability: 'inoperative' },
      { valid_for_seconds: 60, idempotencyKey: unique('request') },
    );
    expect(availability.response.status).toBe(202);
    ids.command = availability.data!.command.command_uuid;

    const answered = await eventually(
      () => sdk.api.GET('/api/v1/control/commands/{uuid}', { params: { path: { uuid: ids.command } } }),
      ({ data }) => data?.command.result?.status !== undefined,
    );
    expect(answered.data?.command).toMatchObject({ status: 'accepted', result: { status: 'Scheduled' } });
    const listed = await sdk.api.GET('/api/v1/control/commands', {
      params: { query: { 'filter[target_uuid]': ids.controller, order_by: '-created_at', limit: 10 } },
    });
    expect(listed.data?.commands.map((command) => command.type)).toEqual(['soft_reset']);
    const configuration = await sdk.api.GET('/api/v1/assets/controllers/{uuid}/configuration', {
      params: { path: { uuid: ids.controller } },
    });
    expect(configuration.response.status).toBe(200);
    const events = await sdk.api.GET('/api/v1/assets/controllers/{uuid}/events', {
      params: { path: { uuid: ids.controller } },
    });
    expect(events.response.status).toBe(200);
  });

  it('deletes what it created', async () => {
    await chargePoint?.close({ force: true });
    chargePoint = undefined;
    const path = (uuid: string) => ({ params: { path: { uuid } } });
    expect((await sdk.api.DELETE('/api/v1/assets/sensors/{uuid}', path(ids.sensor))).response.status).toBe(
      204,
    );
    expect((await sdk.api.DELETE('/api/v1/assets/plugs/{uuid}', path(ids.plug))).response.status).toBe(200);
    expect(
      (await sdk.api.DELETE('/api/v1/assets/controllers/{uuid}', path(ids.controller))).response.status,
    ).toBe(200);
    expect(
      (await sdk.api.DELETE('/api/v1/assets/locations/{uuid}', path(ids.location))).response.status,
    ).toBe(200);
    expect((await sdk.api.GET('/api/v1/assets/locations/{uuid}', path(ids.location))).response.status).toBe(
      404,
    );
  });

  it('found nothing in requests or answers at odds with the committed OpenAPI document', () => {
    expect(violations).toEqual([]);
  });
});
