import { randomUUID } from 'node:crypto';
import {
  ApiTestClient,
  AssetsTestData,
  type ChargePoint,
  eventually,
  OCPP_PASSWORD,
  ocppChargePoint,
  type PlatformUnderTest,
  startPlatformUnderTest,
  tenantWithUsers,
  upgradeStatus,
} from '@cpc/testing';

/**
 * Charge points on the real ocpp-gateway start, meter and stop transactions; command-service keeps them as charging
 * sessions, read through the HTTP API (`/api/v1/control/charging-sessions`), every response checked against the
 * served OpenAPI document.
 */
describe('charging sessions from real charge points', () => {
  let platform: PlatformUnderTest;
  let api: ApiTestClient;
  let token: string;
  let assetsOnlyToken: string;
  let data: AssetsTestData;

  const chargePoint = (identity: string, protocol: string): ChargePoint =>
    ocppChargePoint({
      ocppUrl: platform.ocppUrl,
      tenantSlug: 'acme',
      identity,
      password: OCPP_PASSWORD,
      protocols: [protocol],
    });

  beforeAll(async () => {
    platform = await startPlatformUnderTest();
    api = await ApiTestClient.connect(platform.apiUrl);
    ({ operator: token, installer: assetsOnlyToken } = await tenantWithUsers(platform, api, 'acme', {
      operator: 'asset,control:charging-sessions',
      installer: 'asset',
    }));
    data = new AssetsTestData(api, token);
  }, 180_000);

  afterAll(() => platform?.stop());

  const sessionsOf = (controllerUuid: string) =>
    api.call('GET', `/api/v1/control/charging-sessions?filter[controller_uuid]=${controllerUuid}`, { token });

  it('1.6: StartTransaction → MeterValues → StopTransaction is a completed session on the right plug', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const plugs = [await data.plug(controller.uuid, 1), await data.plug(controller.uuid, 2)];
    const cp = chargePoint(controller.ocpp_identity, 'ocpp1.6');
    await cp.connect();
    await cp.call('BootNotification', { chargePointVendor: 'ACME', chargePointModel: 'Wallbox 16' });
    await cp.call('Heartbeat', {});
    await cp.call('StatusNotification', { connectorId: 2, errorCode: 'NoError', status: 'Preparing' });
    const { transactionId } = (await cp.call('StartTransaction', {
      connectorId: 2,
      idTag: 'RFID-16',
      meterStart: 12_000,
      timestamp: '2026-03-01T08:00:00Z',
    })) as { transactionId: number };

    const active = await eventually(
      () => sessionsOf(controller.uuid),
      (response) => response.body.charging_sessions?.[0]?.plug_uuid === plugs[1].uuid,
    );
    expect(active.status).toBe(200);
    expect(active.body.charging_sessions[0]).toMatchObject({ status: 'active' });
    expect(active.body.charging_sessions[0]).not.toHaveProperty('stopped_at');

    await cp.call('MeterValues', {
      connectorId: 2,
      transactionId,
      meterValue: [{ timestamp: '2026-03-01T08:30:00Z', sampledValue: [{ value: '15.5', unit: 'kWh' }] }],
    });
    await eventually(
      () => sessionsOf(controller.uuid),
      (response) => response.body.charging_sessions?.[0]?.energy_wh === 3500,
    );
    await cp.call('StopTransaction', {
      transactionId,
      meterStop: 19_250,
      timestamp: '2026-03-01T09:00:00Z',
      reason: 'Local',
    });
    const completed = await eventually(
      () => sessionsOf(controller.uuid),
      (response) => response.body.charging_sessions?.[0]?.status === 'completed',
    );
    expect(completed.body.pagination).toEqual({
      page: 1,
      total_pages: 1,
      page_size: 20,
      has_more: false,
      cursor: {},
    });
    const session = completed.body.charging_sessions[0];
    expect(session).toMatchObject({
      controller_uuid: controller.uuid,
      plug_uuid: plugs[1].uuid,
      connector_id: 2,
      ocpp_transaction_id: String(transactionId),
      id_tag: 'RFID-16',
      started_at: '2026-03-01T08:00:00Z',
      stopped_at: '2026-03-01T09:00:00Z',
      meter_start_wh: 12_000,
      meter_stop_wh: 19_250,
      energy_wh: 7250,
      stop_reason: 'Local',
    });
    expect(session).not.toHaveProperty('evse_id');
    const read = await api.call('GET', `/api/v1/control/charging-sessions/${session.uuid}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ charging_session: session });
    await cp.close();
  });

  it('2.0.1: TransactionEvent Started → Updated → Ended is a completed session on the right plug', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const plugs = [await data.plug(controller.uuid, 1), await data.plug(controller.uuid, 2)];
    const cp = chargePoint(controller.ocpp_identity, 'ocpp2.0.1');
    await cp.connect();
    await cp.call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { vendorName: 'ACME', model: 'Wallbox 201' },
    });
    const transactionId = randomUUID();
    const event = (eventType: string, seqNo: number, timestamp: string, extra: Record<string, unknown>) =>
      cp.call('TransactionEvent', {
        eventType,
        timestamp,
        seqNo,
        triggerReason: 'Authorized',
        transactionInfo: { transactionId },
        evse: { id: 2, connectorId: 1 },
        ...extra,
      });
    await event('Started', 0, '2026-03-02T08:00:00Z', {
      idToken: { idToken: 'RFID-201', type: 'ISO14443' },
      meterValue: [
        {
          timestamp: '2026-03-02T08:00:00Z',
          sampledValue: [{ value: 1.5, context: 'Transaction.Begin', unitOfMeasure: { unit: 'kWh' } }],
        },
      ],
    });
    await event('Updated', 1, '2026-03-02T08:30:00Z', {
      meterValue: [{ timestamp: '2026-03-02T08:30:00Z', sampledValue: [{ value: 4000 }] }],
    });
    await event('Ended', 2, '2026-03-02T09:00:00Z', {
      transactionInfo: { transactionId, stoppedReason: 'EVDisconnected' },
      meterValue: [
        {
          timestamp: '2026-03-02T09:00:00Z',
          sampledValue: [{ value: 6.25, context: 'Transaction.End', unitOfMeasure: { unit: 'kWh' } }],
        },
      ],
    });
    const completed = await eventually(
      () => sessionsOf(controller.uuid),
      (response) =>
        response.body.charging_sessions?.[0]?.status === 'completed' &&
        response.body.charging_sessions[0].plug_uuid === plugs[1].uuid,
    );
    expect(completed.body.charging_sessions[0]).toMatchObject({
      ocpp_transaction_id: transactionId,
      evse_id: 2,
      connector_id: 1,
      id_tag: 'RFID-201',
      meter_start_wh: 1500,
      meter_stop_wh: 6250,
      energy_wh: 4750,
      stop_reason: 'EVDisconnected',
    });
    await cp.close();
  });

  it("2.0.1: a start that names the EVSE but not the connector gets the EVSE's only plug", async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const plug = await data.plug(controller.uuid, 1);
    const cp = chargePoint(controller.ocpp_identity, 'ocpp2.0.1');
    await cp.connect();
    await cp.call('TransactionEvent', {
      eventType: 'Started',
      timestamp: '2026-03-05T08:00:00Z',
      seqNo: 0,
      triggerReason: 'Authorized',
      transactionInfo: { transactionId: randomUUID() },
      evse: { id: 1 },
      idToken: { idToken: 'RFID-EVSE', type: 'ISO14443' },
    });
    const linked = await eventually(
      () => sessionsOf(controller.uuid),
      (response) => response.body.charging_sessions?.[0]?.plug_uuid === plug.uuid,
    );
    expect(linked.body.charging_sessions[0]).toMatchObject({ status: 'active', evse_id: 1 });
    await cp.close();
  });

  it('1.6: a new start on a busy connector supersedes the open one; Available after a boot ends the rest', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const plug = await data.plug(controller.uuid, 1);
    const cp = chargePoint(controller.ocpp_identity, 'ocpp1.6');
    await cp.connect();
    const start = (timestamp: string) =>
      cp.call('StartTransaction', { connectorId: 1, idTag: 'RFID-16', meterStart: 0, timestamp }) as Promise<{
        transactionId: number;
      }>;
    const first = await start('2026-03-06T08:00:00Z');
    // The charge point never read the answer, and starts again on the same connector.
    const second = await start('2026-03-06T08:01:00Z');
    type Listed = { ocpp_transaction_id: string; status: string; plug_uuid?: string };
    const byId = (body: { charging_sessions?: Listed[] }, id: number) =>
      body.charging_sessions?.find((session) => session.ocpp_transaction_id === String(id));
    // The start supersedes the first session, then finds the second one's plug (a look-up in assets-service).
    const superseded = await eventually(
      () => sessionsOf(controller.uuid),
      (response) =>
        byId(response.body, first.transactionId)?.status === 'completed' &&
        byId(response.body, second.transactionId)?.plug_uuid !== undefined,
    );
    expect(byId(superseded.body, first.transactionId)).toMatchObject({
      stop_reason: 'superseded',
      stopped_at: '2026-03-06T08:01:00Z',
    });
    expect(byId(superseded.body, second.transactionId)).toMatchObject({
      status: 'active',
      plug_uuid: plug.uuid,
    });

    // It reboots, and reports the connector free: the second transaction died with the boot.
    await cp.call('BootNotification', { chargePointVendor: 'ACME', chargePointModel: 'Wallbox 16' });
    await cp.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available' });
    const ended = await eventually(
      () =>
        api.call(
          'GET',
          `/api/v1/control/charging-sessions?filter[plug_uuid]=${plug.uuid}&filter[status]=active`,
          { token },
        ),
      (response) => response.body.charging_sessions?.length === 0,
    );
    expect(ended.status).toBe(200);
    const all = await sessionsOf(controller.uuid);
    expect(byId(all.body, second.transactionId)).toMatchObject({
      status: 'completed',
      stop_reason: 'charge_point_rebooted',
    });
    await cp.close();
  });

  it.each(['ocpp1.6', 'ocpp2.0.1'])(
    "%s: a session's meter values are kept and read back in order, with its peak power",
    async (protocol) => {
      const location = await data.location();
      const controller = await data.controller(location.uuid);
      await data.plug(controller.uuid, 1);
      const cp = chargePoint(controller.ocpp_identity, protocol);
      await cp.connect();
      const minute = (n: number) => `2026-03-07T08:0${n}:00Z`;
      if (protocol === 'ocpp1.6') {
        const { transactionId } = (await cp.call('StartTransaction', {
          connectorId: 1,
          idTag: 'RFID-MV',
          meterStart: 0,
          timestamp: minute(0),
        })) as { transactionId: number };
        for (const n of [2, 1]) {
          await cp.call('MeterValues', {
            connectorId: 1,
            transactionId,
            meterValue: [
              {
                timestamp: minute(n),
                sampledValue: [
                  { value: String(n * 100) },
                  { value: String(n * 3.5), measurand: 'Power.Active.Import', unit: 'kW' },
                ],
              },
            ],
          });
        }
      } else {
        const transactionId = randomUUID();
        for (const [seqNo, n] of [
          [0, 0],
          [1, 2],
          [2, 1],
        ]) {
          await cp.call('TransactionEvent', {
            eventType: seqNo === 0 ? 'Started' : 'Updated',
            timestamp: minute(n),
            seqNo,
            triggerReason: seqNo === 0 ? 'Authorized' : 'MeterValuePeriodic',
            transactionInfo: { transactionId },
            evse: { id: 1, connectorId: 1 },
            ...(n === 0
              ? {}
              : {
                  meterValue: [
                    {
                      timestamp: minute(n),
                      sampledValue: [
                        { value: n * 100 },
                        { value: n * 3.5, measurand: 'Power.Active.Import', unitOfMeasure: { unit: 'kW' } },
                      ],
                    },
                  ],
                }),
          });
        }
      }
      const session = (
        await eventually(
          () => sessionsOf(controller.uuid),
          (response) => response.body.charging_sessions?.[0]?.last_sample_at === minute(2),
        )
      ).body.charging_sessions[0];
      expect(session.peak_power_w).toBe(7000);
      const values = await eventually(
        () => api.call('GET', `/api/v1/control/charging-sessions/${session.uuid}/meter-values`, { token }),
        (response) => response.body.meter_values?.length === 4,
      );
      expect(values.status).toBe(200);
      expect(
        values.body.meter_values.map((value: { sampled_at: string; measurand: string; value: number }) => [
          value.sampled_at,
          value.measurand,
          value.value,
        ]),
      ).toEqual([
        [minute(1), 'Energy.Active.Import.Register', 100],
        [minute(1), 'Power.Active.Import', 3.5],
        [minute(2), 'Energy.Active.Import.Register', 200],
        [minute(2), 'Power.Active.Import', 7],
      ]);
      const power = await api.call(
        'GET',
        `/api/v1/control/charging-sessions/${session.uuid}/meter-values?filter[measurand]=Power.Active.Import&limit=1`,
        { token },
      );
      expect(power.body.meter_values).toHaveLength(1);
      expect(power.body.pagination).toEqual({
        page: 1,
        total_pages: 2,
        page_size: 1,
        has_more: true,
        cursor: { next: expect.any(String) },
      });
      await cp.close();
    },
  );

  it('answers filters, a missing session, a malformed uuid and a missing permission as the spec says', async () => {
    const active = await api.call('GET', '/api/v1/control/charging-sessions?filter[status]=active&limit=5', {
      token,
    });
    expect(active.status).toBe(200);
    expect(active.body.pagination.page_size).toBe(5);
    const missing = await api.call('GET', `/api/v1/control/charging-sessions/${randomUUID()}`, { token });
    expect(missing.status).toBe(404);
    const malformed = await api.call('GET', '/api/v1/control/charging-sessions/not-a-uuid', { token });
    expect(malformed.status).toBe(422);
    const badFilter = await api.call('GET', '/api/v1/control/charging-sessions?filter[status]=paused', {
      token,
    });
    expect(badFilter.status).toBe(422);
    expect(badFilter.body.errors[0]).toMatchObject({
      parameter: 'filter[status]',
      errorKey: 'invalid_value',
    });
    const forbidden = await api.call('GET', '/api/v1/control/charging-sessions', { token: assetsOnlyToken });
    expect(forbidden.status).toBe(403);
  });

  it('pages the sessions by cursor forwards and back, keeps the filter, and refuses a cursor of another list', async () => {
    const list = (query: string) => api.call('GET', `/api/v1/control/charging-sessions?${query}`, { token });
    const uuids = (response: Awaited<ReturnType<typeof list>>) =>
      (response.body.charging_sessions as { uuid: string }[]).map((session) => session.uuid);
    /** Follows `pagination.cursor[link]` from `start` until it ends: every page's sessions, and the last page. */
    const walk = async (start: Awaited<ReturnType<typeof list>>, link: 'next' | 'prev', query: string) => {
      const pages = [uuids(start)];
      let last = start;
      let cursor = start.body.pagination.cursor[link] as string | undefined;
      while (cursor !== undefined) {
        last = await list(`${query}&cursor=${cursor}`);
        expect(last.status).toBe(200);
        expect(last.body.pagination).toEqual({
          page_size: 2,
          has_more: expect.any(Boolean),
          cursor: expect.any(Object),
        });
        pages.push(uuids(last));
        cursor = last.body.pagination.cursor[link];
      }
      return { pages, last };
    };
    for (const query of ['limit=2', 'limit=2&filter[status]=completed', 'limit=2&order_by=%2Bstarted_at']) {
      const all = uuids(await list(query.replace('limit=2', 'limit=50')));
      expect(all.length).toBeGreaterThan(2);
      const forwards = await walk(await list(query), 'next', query);
      expect([query, forwards.pages.flat()]).toEqual([query, all]);
      const backwards = await walk(forwards.last, 'prev', query);
      expect([query, backwards.pages.reverse()]).toEqual([query, forwards.pages]);
    }
    const cursor = (await list('limit=2')).body.pagination.cursor.next as string;
    for (const query of [`limit=2&filter[status]=active&cursor=${cursor}`, 'cursor=bm90LWEtY3Vyc29y']) {
      const refused = await list(query);
      expect([query, refused.status]).toEqual([query, 422]);
      expect(refused.body).toEqual({
        errors: [{ parameter: 'cursor', errorKey: 'invalid_cursor', message: expect.any(String) }],
      });
    }
  });

  it('refuses handshakes for an unknown tenant, an unknown identity and a path that is no OCPP endpoint', async () => {
    const location = await data.location();
    const controller = await data.controller(location.uuid);
    const status = async (path: string, identity = controller.ocpp_identity) =>
      (await upgradeStatus(platform.ocppUrl, { path, basicAuth: `${identity}:${OCPP_PASSWORD}` })).status;
    expect(await status(`/ocpp/acme/${controller.ocpp_identity}`)).toBe(101);
    expect(await status(`/ocpp/nobody/${controller.ocpp_identity}`)).toBe(401);
    expect(await status('/ocpp/acme/CP-UNKNOWN', 'CP-UNKNOWN')).toBe(401);
    expect(await status(`/elsewhere/acme/${controller.ocpp_identity}`)).toBe(404);
  });
});
