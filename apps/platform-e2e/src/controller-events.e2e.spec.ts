import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';

/**
 * A controller's event log (`/api/v1/assets/controllers/{uuid}/events`), written by assets-service from what a real
 * charge point does on the real gateway; every response checked against the served OpenAPI document.
 */
describe("a controller's event log", () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let otherTenantToken: string;
  let data: AssetsTestData;

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset' }));
    ({ operator: otherTenantToken } = await tenantWithUsers(platform, api, 'globex', { operator: 'asset' }));
    data = new AssetsTestData(api, token);
  }, 180_000);

  afterAll(() => platform?.stop());

  const eventsOf = (controllerUuid: string, query = '', bearer = token) =>
    api.call('GET', `/api/v1/assets/controllers/${controllerUuid}/events${query}`, { token: bearer });

  it('keeps connection, boot, status, firmware and authorization-refusal events, newest first, with the close code', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const cp = ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity: controller.ocpp_identity,
      password: OCPP_PASSWORD,
      protocols: ['ocpp1.6'],
    });
    await cp.connect();
    await cp.call('BootNotification', {
      chargePointVendor: 'ACME',
      chargePointModel: 'Wallbox 16',
      firmwareVersion: '1.2.3',
    });
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging' });
    await cp.call('FirmwareStatusNotification', { status: 'Downloading' });
    // The tenant authorizes strictly: a card it does not know is refused, and the refusal is logged.
    expect(await cp.call('Authorize', { idTag: 'UNKNOWN-CARD' })).toEqual({
      idTagInfo: { status: 'Invalid' },
    });
    await eventually(
      () => eventsOf(controller.uuid, '?filter[kind]=authorization_refused'),
      (response) => response.body.events?.length === 1,
    );
    await cp.close({ code: 4000, reason: 'maintenance' });

    const all = await eventually(
      () => eventsOf(controller.uuid),
      (response) => response.body.events?.some((event: { kind: string }) => event.kind === 'disconnected'),
    );
    expect(all.status).toBe(200);
    const kinds = all.body.events.map((event: { kind: string }) => event.kind);
    expect([...kinds].sort()).toEqual([
      'authorization_refused',
      'booted',
      'connected',
      'disconnected',
      'firmware_status',
      'status_changed',
    ]);
    expect(kinds[0]).toBe('disconnected');
    const byKind = Object.fromEntries(
      all.body.events.map((event: { kind: string; details: unknown }) => [event.kind, event.details]),
    );
    expect(byKind.connected).toMatchObject({ protocol: 'ocpp1.6' });
    expect(byKind.booted).toMatchObject({ vendor: 'ACME', model: 'Wallbox 16', firmware_version: '1.2.3' });
    expect(byKind.status_changed).toMatchObject({
      connector_id: 1,
      status: 'Charging',
      error_code: 'NoError',
    });
    expect(byKind.firmware_status).toMatchObject({ status: 'Downloading' });
    expect(byKind.disconnected).toMatchObject({ close_code: 4000 });
    expect(byKind.authorization_refused).toMatchObject({
      id_token: 'UNKNOWN-CARD',
      result: expect.not.stringMatching(/^accepted$/),
      message_kind: expect.any(String),
    });
    expect(byKind.disconnected.reason).toContain('maintenance');

    const read = await api.call('GET', `/api/v1/assets/controllers/${controller.uuid}`, { token });
    expect(read.body.controller).toMatchObject({
      firmware_status: 'Downloading',
      firmware_status_at: expect.stringMatching(/Z$/),
    });
    expect(read.body.controller).not.toHaveProperty('diagnostics_status');

    const statuses = await eventsOf(controller.uuid, '?filter[kind]=status_changed');
    expect(statuses.body.events).toHaveLength(1);
    const paged = await eventsOf(controller.uuid, '?limit=2&page=2');
    expect(paged.body.pagination).toEqual({
      page: 2,
      total_pages: 3,
      page_size: 2,
      has_more: true,
      cursor: { prev: expect.any(String), next: expect.any(String) },
    });
    expect(paged.body.events.map((event: { kind: string }) => event.kind)).toEqual(kinds.slice(2, 4));
    // By cursor from page 2: page 3, then back to page 2 and page 1, each event once.
    const third = await eventsOf(controller.uuid, `?limit=2&cursor=${paged.body.pagination.cursor.next}`);
    expect(third.body.pagination).toEqual({
      page_size: 2,
      has_more: false,
      cursor: { prev: expect.any(String) },
    });
    expect(third.body.events.map((event: { kind: string }) => event.kind)).toEqual(kinds.slice(4));
    const back = await eventsOf(controller.uuid, `?page_size=2&cursor=${third.body.pagination.cursor.prev}`);
    expect(back.body.events.map((event: { kind: string }) => event.kind)).toEqual(kinds.slice(2, 4));
    const start = await eventsOf(controller.uuid, `?limit=2&cursor=${back.body.pagination.cursor.prev}`);
    expect(start.body.events.map((event: { kind: string }) => event.kind)).toEqual(kinds.slice(0, 2));
    expect(start.body.pagination.cursor.prev).toBeUndefined();
    const foreign = await eventsOf(
      controller.uuid,
      `?limit=2&cursor=${paged.body.pagination.cursor.next}&filter[kind]=status_changed`,
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0]).toMatchObject({ parameter: 'cursor', errorKey: 'invalid_cursor' });
  });

  it("answers another tenant's controller, a missing one and bad filters as the spec says", async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    expect((await eventsOf(controller.uuid, '', otherTenantToken)).status).toBe(404);
    expect((await eventsOf('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await eventsOf(controller.uuid, '?filter[kind]=exploded')).status).toBe(422);
    expect((await eventsOf(controller.uuid, '?filter[occurred_from]=yesterday')).status).toBe(422);
  });
});
