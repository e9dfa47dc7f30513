import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  AssetsSubjects,
  ChargePointEventSubjects,
  type ControllerCredentialsChangedEvent,
  type ControllerDeletedEvent,
  type ControllerView,
  ErrorCode,
  type EventEnvelope,
  type LocationView,
  type PlugView,
  type SensorView,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import { MAX_EXISTENCE_LOOKUPS } from './controllers/controllers.handler.js';
import { startAssetsServiceRig } from './testing/assets-service-rig.js';

jest.setTimeout(60_000);

let rig: ServiceTestRig;

const tenantA = randomUUID();
const tenantB = randomUUID();

function call<T>(subject: string, payload: unknown, tenantUuid: string = tenantA): Promise<T> {
  return rig.call<T>(subject, payload, tenantUuid);
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

const listAll = { page: 1, limit: 50, orderBy: [], filter: {} };

function createLocation(
  name = 'Depot',
  tenantUuid = tenantA,
  extra: Record<string, unknown> = {},
): Promise<LocationView> {
  return call<LocationView>(AssetsSubjects.createLocation, { name, ...extra }, tenantUuid);
}

function createController(
  locationUuid: string,
  identity: string,
  tenantUuid = tenantA,
): Promise<ControllerView> {
  return call<ControllerView>(
    AssetsSubjects.createController,
    {
      location_uuid: locationUuid,
      name: `CP ${identity}`,
      ocpp_identity: identity,
      ocpp_password: 'secret-password-123',
    },
    tenantUuid,
  );
}

function createPlug(
  controllerUuid: string,
  connectorId: number,
  extra: Record<string, unknown> = {},
): Promise<PlugView> {
  return call<PlugView>(AssetsSubjects.createPlug, {
    controller_uuid: controllerUuid,
    connector_id: connectorId,
    standard: 'iec_62196_t2',
    power_type: 'ac_3_phase',
    max_power_kw: 22,
    ...extra,
  });
}

function toSecondsPrecision(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function envelope<T>(
  controller: ControllerView,
  data: T,
  occurredAt: Date,
  tenantUuid = tenantA,
): EventEnvelope<T> {
  return {
    eventId: randomUUID(),
    occurredAt: occurredAt.toISOString(),
    tenantUuid,
    data: { controllerUuid: controller.uuid, ocppIdentity: controller.ocpp_identity, ...data },
  };
}

beforeAll(async () => {
  rig = await startAssetsServiceRig({ OUTBOX_RELAY_INTERVAL_MS: '200', OCPP_PASSWORD_SCRYPT_LOG2_N: '10' });
});

afterAll(() => rig?.stop());

describe('locations', () => {
  it('creates, reads, updates and lists a location with facility types', async () => {
    const parking = await call<{ uuid: string; name: string }>(AssetsSubjects.createFacilityType, {
      name: 'Parking',
    });
    const created = await createLocation('Harbour', tenantA, {
      status: 'in_questioning',
      country_code: 'DEU',
      latitude: '53.5461',
      longitude: '9.9661',
      height: '12.5',
      contract_id: 42,
      publish: true,
      facility_type_uuids: [parking.uuid],
    });
    expect(created).toMatchObject({
      name: 'Harbour',
      status: 'in_questioning',
      latitude: '53.5461',
      height: '12.50',
      contract_id: 42,
      publish: true,
      controllers: [],
      charge_point_count: 0,
      facility_types: [{ uuid: parking.uuid, name: 'Parking' }],
    });
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(created.modification_date).toBe(created.created_at);

    const updated = await call<LocationView>(AssetsSubjects.updateLocation, {
      uuid: created.uuid,
      changes: { city: 'Hamburg', facility_type_uuids: [] },
    });
    expect(updated).toMatchObject({ city: 'Hamburg', name: 'Harbour', facility_types: [] });
    expect(await call(AssetsSubjects.getLocation, { uuid: created.uuid })).toEqual(updated);

    const page = await call<{ items: LocationView[] }>(AssetsSubjects.listLocations, {
      ...listAll,
      filter: { name: 'arbou', city: 'Hamburg' },
    });
    expect(page.items.map((location) => location.uuid)).toEqual([created.uuid]);
  });

  it('refuses an unknown facility type and a duplicate facility-type name', async () => {
    const unknown = await failure(createLocation('X', tenantA, { facility_type_uuids: [randomUUID()] }));
    expect(unknown.issues?.[0]).toMatchObject({ parameter: 'facility_types', errorKey: 'not_found' });
    await call(AssetsSubjects.createFacilityType, { name: 'Shop' });
    const duplicate = await failure(call(AssetsSubjects.createFacilityType, { name: 'shop' }));
    expect(duplicate.issues?.[0]).toMatchObject({ parameter: 'name', errorKey: 'already_exists' });
  });

  it("pages with a stable order, and never shows another tenant's locations", async () => {
    const tenant = randomUUID();
    for (const name of ['b', 'a', 'c']) await createLocation(name, tenant);
    await createLocation('a', tenantB);
    const first = await call<{ items: LocationView[]; pagination: unknown }>(
      AssetsSubjects.listLocations,
      { page: 1, limit: 2, orderBy: [{ field: 'name', direction: 'asc' }], filter: {} },
      tenant,
    );
    expect(first.items.map((location) => location.name)).toEqual(['a', 'b']);
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: 2,
      page_size: 2,
      has_more: true,
      cursor: { next: expect.any(String) },
    });
    const empty = await call<{ items: LocationView[] }>(AssetsSubjects.listLocations, listAll, randomUUID());
    expect(empty.items).toEqual([]);
  });

  it('answers reads arriving together (sharing statements) each with its own location, for its own tenant', async () => {
    const [north, south] = [await createLocation('North'), await createLocation('South')];
    const theirs = await createLocation('Theirs', tenantB);
    const reads: [string, string][] = Array.from({ length: 30 }, (_, index) => {
      const picks: [string, string][] = [
        [north.uuid, tenantA],
        [south.uuid, tenantA],
        [theirs.uuid, tenantA],
        [theirs.uuid, tenantB],
        [randomUUID(), tenantA],
        [north.uuid, tenantA],
      ];
      return picks[index % picks.length];
    });
    const answers = await Promise.all(
      reads.map(([uuid, tenant]) =>
        call<LocationView>(AssetsSubjects.getLocation, { uuid }, tenant).then(
          (view) => view.name,
          (error: DomainError) => error.code,
        ),
      ),
    );
    expect(answers).toEqual(
      reads.map(
        (_, index) =>
          ['North', 'South', ErrorCode.NotFound, 'Theirs', ErrorCode.NotFound, 'North'][index % 6],
      ),
    );
    // A read after an acknowledged write sees it, also when other reads are under way.
    const pending = Array.from({ length: 10 }, () => call(AssetsSubjects.getLocation, { uuid: north.uuid }));
    await call(AssetsSubjects.updateLocation, { uuid: north.uuid, changes: { name: 'North renamed' } });
    await expect(call<LocationView>(AssetsSubjects.getLocation, { uuid: north.uuid })).resolves.toMatchObject(
      {
        name: 'North renamed',
      },
    );
    await Promise.all(pending);
  });

  it('counts one charge point per EVSE of the controllers at the location', async () => {
    const location = await createLocation('Counting');
    const first = await createController(location.uuid, 'COUNT-1');
    const second = await createController(location.uuid, 'COUNT-2');
    await createPlug(first.uuid, 1);
    await createPlug(first.uuid, 2);
    await createPlug(second.uuid, 1, { evse_id: 1 });
    await createPlug(second.uuid, 2, { evse_id: 1, standard: 'iec_62196_t2_combo', power_type: 'dc' });
    const view = await call<LocationView>(AssetsSubjects.getLocation, { uuid: location.uuid });
    expect(view.charge_point_count).toBe(3);
    expect(view.controllers).toEqual([{ controller_uuid: first.uuid }, { controller_uuid: second.uuid }]);
  });

  it('answers read and list with the same view, every field in the order of the spec', async () => {
    const tenant = randomUUID();
    const [shop, bistro] = await Promise.all(
      ['Shop', 'Bistro'].map((name) =>
        call<{ uuid: string }>(AssetsSubjects.createFacilityType, { name }, tenant),
      ),
    );
    const fields = {
      status: 'active',
      street: 'Am Kai',
      house_number: '1a',
      postal_code: '20457',
      city: 'Hamburg',
      district: 'HafenCity',
      rural_district: null,
      country_code: 'DEU',
      latitude: '53.54610000',
      longitude: '-9.9661',
      height: '-3',
      operator: 'Op',
      support_hotline: '+4940123456',
      publish: true,
      identifier: 'HH-1',
      directions: 'left',
      description: 'desc',
      comment: null,
      comment_usage_agreement: 'ok',
      website: 'https://example.com',
      partner: 'P',
      accounter: 'A',
      level_measurement: 'L',
      network_carrier: 'N',
      available_power: '100 kW',
      additional_conditions: 'none',
      max_standing_time: '2 h',
      contract_id: 7,
      modification_date: '2025-02-28',
    };
    const location = await call<LocationView>(
      AssetsSubjects.createLocation,
      { name: 'Exact', ...fields, facility_type_uuids: [shop.uuid, bistro.uuid] },
      tenant,
    );
    const controller = await call<ControllerView>(
      AssetsSubjects.createController,
      {
        location_uuid: location.uuid,
        name: 'CP',
        ocpp_identity: `EXACT-${tenant}`,
        ocpp_password: 'secret-password-123',
      },
      tenant,
    );
    await call<PlugView>(
      AssetsSubjects.createPlug,
      {
        controller_uuid: controller.uuid,
        connector_id: 1,
        standard: 'iec_62196_t2',
        power_type: 'ac_3_phase',
        max_power_kw: 22,
      },
      tenant,
    );
    const today = new Date().toISOString().slice(0, 10);
    // The spec's order of the fields; values as sent, but for those the service derives or normalises.
    const derived: Record<string, unknown> = {
      uuid: location.uuid,
      created_at: location.created_at,
      updated_at: location.updated_at,
      controllers: [{ controller_uuid: controller.uuid }],
      charge_point_count: 1,
      name: 'Exact',
      height: '-3.00',
      facility_types: [
        { uuid: bistro.uuid, name: 'Bistro' },
        { uuid: shop.uuid, name: 'Shop' },
      ],
    };
    const specOrder = [
      ...['uuid', 'created_at', 'updated_at', 'modification_date', 'controllers', 'charge_point_count'],
      ...['name', 'status', 'street', 'house_number', 'postal_code', 'city', 'district', 'rural_district'],
      ...['operator', 'identifier', 'directions', 'description', 'comment', 'comment_usage_agreement'],
      ...['partner', 'accounter', 'level_measurement', 'network_carrier', 'available_power'],
      ...['additional_conditions', 'max_standing_time', 'country_code', 'latitude', 'longitude', 'height'],
      ...['support_hotline', 'publish', 'website', 'contract_id', 'facility_types'],
    ];
    const expected = JSON.stringify(
      Object.fromEntries(
        specOrder.map((key) => [key, key in derived ? derived[key] : fields[key as keyof typeof fields]]),
      ),
    );
    expect(location.created_at).toBe(today);
    const read = await call<LocationView>(AssetsSubjects.getLocation, { uuid: location.uuid }, tenant);
    const page = await call<{ items: LocationView[] }>(AssetsSubjects.listLocations, listAll, tenant);
    expect(JSON.stringify(read)).toBe(expected);
    expect(page.items.map((item) => JSON.stringify(item))).toEqual([expected]);
    const otherTenant = await failure(call(AssetsSubjects.getLocation, { uuid: location.uuid }));
    expect(otherTenant.code).toBe(ErrorCode.NotFound);
  });
});

describe('deletes', () => {
  it('refuses to delete a location that still has controllers, and deletes it once they are gone', async () => {
    const location = await createLocation('Busy');
    const controller = await createController(location.uuid, 'BUSY-1');
    const refused = await failure(call(AssetsSubjects.deleteLocation, { uuid: location.uuid }));
    expect(refused.code).toBe(ErrorCode.ValidationFailed);
    expect(refused.issues?.[0].errorKey).toBe('has_dependents');
    await call(AssetsSubjects.deleteController, { uuid: controller.uuid });
    expect(await call(AssetsSubjects.deleteLocation, { uuid: location.uuid })).toEqual({});
    expect((await failure(call(AssetsSubjects.getLocation, { uuid: location.uuid }))).code).toBe(
      ErrorCode.NotFound,
    );
    expect((await failure(call(AssetsSubjects.deleteLocation, { uuid: location.uuid }))).code).toBe(
      ErrorCode.NotFound,
    );
  });

  it('deletes a controller with its plugs and sensors and publishes controller-deleted durably', async () => {
    const received: ControllerDeletedEvent[] = [];
    await rig.eventBus.consume(
      {
        durableName: `test-controller-deleted-${randomUUID()}`,
        filterSubject: AssetsSubjects.controllerDeleted,
      },
      (_subject, event) => {
        received.push(event as ControllerDeletedEvent);
        return Promise.resolve();
      },
    );
    const location = await createLocation('Doomed');
    const controller = await createController(location.uuid, 'DOOMED-1');
    const plug = await createPlug(controller.uuid, 1);
    const attached = await call<SensorView>(AssetsSubjects.createSensor, {
      controller_uuid: controller.uuid,
      kind: 'temperature',
      name: 'cabinet',
    });
    const atLocation = await call<SensorView>(AssetsSubjects.createSensor, {
      location_uuid: location.uuid,
      kind: 'occupancy',
      name: 'bay 1',
    });

    expect(await call(AssetsSubjects.deleteController, { uuid: controller.uuid })).toEqual({});
    for (const [subject, uuid] of [
      [AssetsSubjects.getController, controller.uuid],
      [AssetsSubjects.getPlug, plug.uuid],
      [AssetsSubjects.getSensor, attached.uuid],
    ] as const) {
      expect((await failure(call(subject, { uuid }))).code).toBe(ErrorCode.NotFound);
    }
    expect(await call(AssetsSubjects.getSensor, { uuid: atLocation.uuid })).toMatchObject({
      uuid: atLocation.uuid,
    });
    const [event] = await eventually(
      () =>
        Promise.resolve(received.filter((candidate) => candidate.data.controllerUuid === controller.uuid)),
      (events) => events.length > 0,
    );
    expect(event).toMatchObject({
      tenantUuid: tenantA,
      data: { controllerUuid: controller.uuid, ocppIdentity: 'DOOMED-1', locationUuid: location.uuid },
    });
  });

  it("answers not_found for another tenant's assets on every operation", async () => {
    const location = await createLocation('Private');
    const controller = await createController(location.uuid, 'PRIVATE-1');
    const plug = await createPlug(controller.uuid, 1);
    const sensor = await call<SensorView>(AssetsSubjects.createSensor, {
      location_uuid: location.uuid,
      kind: 'other',
      name: 's',
    });
    const cases: [string, string][] = [
      ['Location', location.uuid],
      ['Controller', controller.uuid],
      ['Plug', plug.uuid],
      ['Sensor', sensor.uuid],
    ];
    for (const [kind, uuid] of cases) {
      for (const operation of ['get', 'update', 'delete'] as const) {
        const subject = (AssetsSubjects as Record<string, string>)[`${operation}${kind}`];
        const payload = operation === 'update' ? { uuid, changes: { name: 'stolen' } } : { uuid };
        expect((await failure(call(subject, payload, tenantB))).code).toBe(ErrorCode.NotFound);
      }
    }
    const plugs = await call<{ items: PlugView[] }>(
      AssetsSubjects.listPlugs,
      { ...listAll, filter: { controller_uuid: controller.uuid } },
      tenantB,
    );
    expect(plugs.items).toEqual([]);
    const refused = await failure(
      call(
        AssetsSubjects.createController,
        { location_uuid: location.uuid, name: 'x', ocpp_identity: 'X', security_profile: 0 },
        tenantB,
      ),
    );
    expect(refused.issues?.[0]).toMatchObject({ parameter: 'location_uuid', errorKey: 'not_found' });
    expect(await call(AssetsSubjects.getLocation, { uuid: location.uuid })).toMatchObject({
      name: 'Private',
    });
  });
});

describe('controllers and plugs', () => {
  it('keeps OCPP identities unique per tenant, case-insensitively, and connector ids unique per controller', async () => {
    const location = await createLocation('Unique');
    const controller = await createController(location.uuid, 'Unique-1');
    const duplicate = await failure(createController(location.uuid, 'UNIQUE-1'));
    expect(duplicate.issues?.[0]).toMatchObject({ parameter: 'ocpp_identity', errorKey: 'already_exists' });
    const otherTenantLocation = await createLocation('Elsewhere', tenantB);
    await expect(createController(otherTenantLocation.uuid, 'UNIQUE-1', tenantB)).resolves.toMatchObject({
      ocpp_identity: 'UNIQUE-1',
    });
    const plug = await createPlug(controller.uuid, 1);
    expect(plug).toMatchObject({
      evse_id: 1,
      status: 'unknown',
      status_updated_at: null,
      location_uuid: location.uuid,
    });
    const clash = await failure(createPlug(controller.uuid, 1));
    expect(clash.issues?.[0]).toMatchObject({ parameter: 'connector_id', errorKey: 'already_exists' });
  });

  it('requires a password for security profiles 1 and 2 and never returns it', async () => {
    const location = await createLocation('Secure');
    const missing = await failure(
      call(AssetsSubjects.createController, {
        location_uuid: location.uuid,
        name: 'x',
        ocpp_identity: 'NOPASS',
      }),
    );
    expect(missing.issues?.[0]).toMatchObject({ parameter: 'ocpp_password', errorKey: 'required' });
    const controller = await createController(location.uuid, 'WITHPASS');
    expect(JSON.stringify(controller)).not.toContain('secret-password-123');
    expect(controller).toMatchObject({
      security_profile: 1,
      has_ocpp_password: true,
      connection_status: 'offline',
    });
    // Read back as created, with the same fields (the lookup is a statement of its own, not the entity's).
    expect(await call(AssetsSubjects.getController, { uuid: controller.uuid })).toEqual(controller);
  });

  it('answers whether each of many controllers exists for its own tenant, in one request', async () => {
    const location = await createLocation('Existence');
    const first = await createController(location.uuid, 'EXIST-1');
    const second = await createController(location.uuid, 'EXIST-2');
    const elsewhere = await createController(
      (await createLocation('Existence B', tenantB)).uuid,
      'EXIST-1',
      tenantB,
    );
    const lookups = [
      { tenantUuid: tenantA, uuid: second.uuid },
      { tenantUuid: tenantA, uuid: randomUUID() },
      { tenantUuid: tenantA, uuid: elsewhere.uuid },
      { tenantUuid: tenantB, uuid: elsewhere.uuid },
      { tenantUuid: tenantA, uuid: 'not-a-uuid' },
      { tenantUuid: tenantA, uuid: first.uuid.toUpperCase() },
      { tenantUuid: tenantA, uuid: first.uuid },
    ];
    await expect(
      rig.client.request(AssetsSubjects.controllersExist, { controllers: lookups }),
    ).resolves.toEqual({
      exists: [true, false, false, true, false, true, true],
    });
    await expect(rig.client.request(AssetsSubjects.controllersExist, { controllers: [] })).resolves.toEqual({
      exists: [],
    });
    const tooMany = Array.from({ length: MAX_EXISTENCE_LOOKUPS + 1 }, () => lookups[0]);
    const refused = await failure(
      rig.client.request(AssetsSubjects.controllersExist, { controllers: tooMany }),
    );
    expect(refused.issues?.[0]).toMatchObject({ parameter: 'controllers', errorKey: 'too_many' });
  });

  it('authenticates charge points by identity and password, indistinguishably when either is wrong', async () => {
    const location = await createLocation('Auth');
    const controller = await createController(location.uuid, 'AUTH-1');
    const ok = await rig.client.request(AssetsSubjects.authenticateChargePoint, {
      tenantUuid: tenantA,
      ocppIdentity: 'auth-1',
      password: 'secret-password-123',
    });
    expect(ok).toEqual({
      controllerUuid: controller.uuid,
      ocppIdentity: 'AUTH-1',
      securityProfile: 1,
      credentialsVersion: 1,
      locationUuid: location.uuid,
    });
    const attempts = [
      { tenantUuid: tenantA, ocppIdentity: 'AUTH-1', password: 'wrong-password-12345' },
      { tenantUuid: tenantA, ocppIdentity: 'AUTH-1' },
      { tenantUuid: tenantA, ocppIdentity: 'NOBODY', password: 'secret-password-123' },
      { tenantUuid: tenantB, ocppIdentity: 'AUTH-1', password: 'secret-password-123' },
      { tenantUuid: 'not-a-uuid', ocppIdentity: 'AUTH-1', password: 'secret-password-123' },
    ];
    for (const attempt of attempts) {
      const error = await failure(rig.client.request(AssetsSubjects.authenticateChargePoint, attempt));
      expect(error.toPayload()).toEqual({
        code: ErrorCode.InvalidCredentials,
        message: 'invalid charge point credentials',
      });
    }
    await call(AssetsSubjects.createController, {
      location_uuid: location.uuid,
      name: 'tls',
      ocpp_identity: 'AUTH-TLS',
      security_profile: 3,
    });
    await expect(
      rig.client.request(AssetsSubjects.authenticateChargePoint, {
        tenantUuid: tenantA,
        ocppIdentity: 'AUTH-TLS',
      }),
    ).resolves.toMatchObject({ securityProfile: 3 });
  });

  it('raises the credentials version and publishes credentials-changed durably for a password, profile or identity change, and only then', async () => {
    const received: ControllerCredentialsChangedEvent[] = [];
    await rig.eventBus.consume(
      {
        durableName: `test-credentials-changed-${randomUUID()}`,
        filterSubject: AssetsSubjects.controllerCredentialsChanged,
      },
      (_subject, event) => {
        received.push(event as ControllerCredentialsChangedEvent);
        return Promise.resolve();
      },
    );
    const location = await createLocation('Rotating');
    const controller = await createController(location.uuid, 'ROTATE-1');
    const update = (changes: Record<string, unknown>) =>
      call<ControllerView>(AssetsSubjects.updateController, { uuid: controller.uuid, changes });
    const authenticate = (ocppIdentity: string, password?: string) =>
      rig.client.request<{ credentialsVersion: number }>(AssetsSubjects.authenticateChargePoint, {
        tenantUuid: tenantA,
        ocppIdentity,
        ...(password === undefined ? {} : { password }),
      });

    // Neither a name, nor the same profile or identity again, is a credential change.
    await update({ name: 'renamed', security_profile: 1, ocpp_identity: 'ROTATE-1' });
    await update({ ocpp_password: 'another-password-456' });
    await update({ security_profile: 0, ocpp_password: null });
    await update({ ocpp_identity: 'ROTATE-2' });

    const events = await eventually(
      () =>
        Promise.resolve(received.filter((candidate) => candidate.data.controllerUuid === controller.uuid)),
      (found) => found.length >= 3,
    );
    expect(events.map((event) => [event.data.credentialsVersion, event.data.changed])).toEqual([
      [2, ['ocpp_password']],
      [3, ['security_profile', 'ocpp_password']],
      [4, ['ocpp_identity']],
    ]);
    expect(events[2]).toMatchObject({ tenantUuid: tenantA, data: { ocppIdentity: 'ROTATE-2' } });
    await expect(authenticate('ROTATE-2')).resolves.toMatchObject({ credentialsVersion: 4 });
    expect((await failure(authenticate('ROTATE-1'))).code).toBe(ErrorCode.InvalidCredentials);
  });

  it('applies live-state events to the controller and its plugs, ignoring older ones', async () => {
    const location = await createLocation('Live');
    const controller = await createController(location.uuid, 'LIVE-1');
    const plug = await createPlug(controller.uuid, 1);
    const second = await createPlug(controller.uuid, 2);
    const t0 = Date.now() - 60_000;
    const at = (seconds: number): Date => new Date(t0 + seconds * 1000);
    const atSeconds = (seconds: number): string => toSecondsPrecision(at(seconds));
    const emit = (subject: string, seconds: number, data: object, tenantUuid = tenantA): Promise<void> =>
      rig.eventBus.publish(subject, envelope(controller, data, at(seconds), tenantUuid));
    const status = (seconds: number, connectorId: number, evseId: number | null, value: string) => ({
      connectorId,
      evseId,
      status: value,
      errorCode: null,
      reportedAt: at(seconds).toISOString(),
    });
    const connection = (seconds: number, connectionId: string, gatewayInstance: string) => ({
      connectionId,
      gatewayInstance,
      protocol: seconds < 5 ? 'ocpp1.6' : 'ocpp2.0.1',
      connectedAt: at(seconds).toISOString(),
      disconnectedAt: at(seconds).toISOString(),
      reason: 'closed',
    });

    await emit(ChargePointEventSubjects.connected, 1, connection(1, 'c1', 'gw-1'));
    const boot = { vendor: 'ACME', model: 'Wallbox', serialNumber: 'SN-1', firmwareVersion: '1.0' };
    await emit(ChargePointEventSubjects.booted, 2, boot);
    await emit(ChargePointEventSubjects.connectorStatus, 3, status(3, 1, null, 'Charging'));
    // Late and older than what plug 1 shows: ignored.
    await emit(ChargePointEventSubjects.connectorStatus, 2, status(2, 1, null, 'Available'));
    // OCPP 2.0.1 numbering: EVSE 2, its first connector.
    await emit(ChargePointEventSubjects.connectorStatus, 4, status(4, 1, 2, 'Faulted'));
    // The same controller uuid under another tenant: nothing changes.
    await emit(ChargePointEventSubjects.connectorStatus, 5, status(5, 1, null, 'Unavailable'), tenantB);

    const getPlugs = () =>
      Promise.all([plug, second].map((p) => call<PlugView>(AssetsSubjects.getPlug, { uuid: p.uuid })));
    const getController = () => call<ControllerView>(AssetsSubjects.getController, { uuid: controller.uuid });
    const plugs = await eventually(
      getPlugs,
      ([first, other]) => first.status === 'Charging' && other.status === 'Faulted',
    );
    expect(plugs[0].status_updated_at).toBe(atSeconds(3));
    expect(await getController()).toMatchObject({
      connection_status: 'online',
      ocpp_protocol: 'ocpp1.6',
      vendor: 'ACME',
      model: 'Wallbox',
      serial_number: 'SN-1',
      firmware_version: '1.0',
      last_seen_at: atSeconds(4),
    });

    // A second connection replaces the first: the first one's disconnect leaves the controller online.
    await emit(ChargePointEventSubjects.connected, 6, connection(6, 'c2', 'gw-2'));
    await emit(ChargePointEventSubjects.disconnected, 7, connection(7, 'c1', 'gw-1'));
    // An old boot, delivered late: ignored.
    await emit(ChargePointEventSubjects.booted, 0, {
      vendor: 'Old',
      model: 'Old',
      serialNumber: null,
      firmwareVersion: null,
    });
    await emit(ChargePointEventSubjects.connectorStatus, 8, status(8, 2, null, 'Available'));
    await eventually(getPlugs, ([, other]) => other.status === 'Available');
    expect(await getController()).toMatchObject({
      connection_status: 'online',
      ocpp_protocol: 'ocpp2.0.1',
      vendor: 'ACME',
    });

    await emit(ChargePointEventSubjects.disconnected, 9, connection(9, 'c2', 'gw-2'));
    const offline = await eventually(getController, (view) => view.connection_status === 'offline');
    expect(offline.last_seen_at).toBe(atSeconds(8));
  });
});
