import type { components, operations, PlatformClient } from '@cpc/sdk';
import {
  ApiTestClient,
  AssetsTestData,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  OpenApiResponseValidator,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
} from '@cpc/testing';
import { issuesOf, sdkTestUser } from './support/sdk-test-client.js';

type EventsQuery = NonNullable<operations['listControllerEvents']['parameters']['query']>;
type EventsPage = components['schemas']['ControllerEventListResponse'];

const kindsOf = (page: EventsPage | undefined) => page!.events.map((event) => event.kind);

/**
 * A controller's event log (`/api/v1/assets/controllers/{uuid}/events`), written by assets-service from what a real
 * charge point does on the real gateway, read through the typed SDK (libs/sdk); every response checked against the
 * served OpenAPI document.
 */
describe("a controller's event log", () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let data: AssetsTestData;
  /** acme's operator and globex's, by the SDK. */
  let operator: PlatformClient;
  let otherTenant: PlatformClient;

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    const { operator: token } = await tenantWithUsers(platform, api, 'acme', { operator: 'asset' });
    await tenantWithUsers(platform, api, 'globex', { operator: 'asset' });
    data = new AssetsTestData(api, token);
    const validator = await OpenApiResponseValidator.fetch(platform.apiUrl);
    operator = await sdkTestUser(platform.apiUrl, 'acme', 'operator', validator);
    otherTenant = await sdkTestUser(platform.apiUrl, 'globex', 'operator', validator);
  }, 180_000);

  afterAll(() => platform?.stop());

  const eventsOf = (controllerUuid: string, query: EventsQuery = {}, as: PlatformClient = operator) =>
    as.api.GET('/api/v1/assets/controllers/{uuid}/events', {
      params: { path: { uuid: controllerUuid }, query },
    });
  /** Untyped escape: a query the document does not allow (an unknown kind), which the typed client cannot build. */
  const eventsOfRaw = (controllerUuid: string, query: string) =>
    operator.api.GET('/api/v1/assets/controllers/{uuid}/events', {
      params: { path: { uuid: controllerUuid } },
      querySerializer: () => query,
    });

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
      async () => (await eventsOf(controller.uuid, { 'filter[kind]': 'authorization_refused' })).data?.events,
      (events) => events?.length === 1,
    );
    await cp.close({ code: 4000, reason: 'maintenance' });

    const all = await eventually(
      () => eventsOf(controller.uuid),
      ({ data: page }) => page?.events.some((event) => event.kind === 'disconnected') === true,
    );
    expect(all.response.status).toBe(200);
    const kinds = kindsOf(all.data);
    expect([...kinds].sort()).toEqual([
      'authorization_refused',
      'booted',
      'connected',
      'disconnected',
      'firmware_status',
      'status_changed',
    ]);
    expect(kinds[0]).toBe('disconnected');
    const byKind = Object.fromEntries(all.data!.events.map((event) => [event.kind, event.details]));
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

    const read = await operator.api.GET('/api/v1/assets/controllers/{uuid}', {
      params: { path: { uuid: controller.uuid } },
    });
    expect(read.data!.controller).toMatchObject({
      firmware_status: 'Downloading',
      firmware_status_at: expect.stringMatching(/Z$/),
    });
    expect(read.data!.controller).not.toHaveProperty('diagnostics_status');

    const statuses = await eventsOf(controller.uuid, { 'filter[kind]': 'status_changed' });
    expect(statuses.data!.events).toHaveLength(1);
    const paged = await eventsOf(controller.uuid, { limit: 2, page: 2 });
    expect(paged.data!.pagination).toEqual({
      page: 2,
      total_pages: 3,
      page_size: 2,
      has_more: true,
      cursor: { prev: expect.any(String), next: expect.any(String) },
    });
    expect(kindsOf(paged.data)).toEqual(kinds.slice(2, 4));
    // By cursor from page 2: page 3, then back to page 2 and page 1, each event once.
    const third = await eventsOf(controller.uuid, { limit: 2, cursor: paged.data!.pagination.cursor.next });
    expect(third.data!.pagination).toEqual({
      page_size: 2,
      has_more: false,
      cursor: { prev: expect.any(String) },
    });
    expect(kindsOf(third.data)).toEqual(kinds.slice(4));
    const back = await eventsOf(controller.uuid, {
      page_size: 2,
      cursor: third.data!.pagination.cursor.prev,
    });
    expect(kindsOf(back.data)).toEqual(kinds.slice(2, 4));
    const start = await eventsOf(controller.uuid, { limit: 2, cursor: back.data!.pagination.cursor.prev });
    expect(kindsOf(start.data)).toEqual(kinds.slice(0, 2));
    expect(start.data!.pagination.cursor.prev).toBeUndefined();
    const foreign = await eventsOf(controller.uuid, {
      limit: 2,
      cursor: paged.data!.pagination.cursor.next,
      'filter[kind]': 'status_changed',
    });
    expect(foreign.response.status).toBe(422);
    expect(issuesOf(foreign.error)[0]).toMatchObject({ parameter: 'cursor', errorKey: 'invalid_cursor' });
  });

  it("answers another tenant's controller, a missing one and bad filters as the spec says", async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    expect((await eventsOf(controller.uuid, {}, otherTenant)).response.status).toBe(404);
    expect((await eventsOf('00000000-0000-4000-8000-000000000000')).response.status).toBe(404);
    expect((await eventsOfRaw(controller.uuid, 'filter[kind]=exploded')).response.status).toBe(422);
    expect((await eventsOf(controller.uuid, { 'filter[occurred_from]': 'yesterday' })).response.status).toBe(
      422,
    );
  });
});
