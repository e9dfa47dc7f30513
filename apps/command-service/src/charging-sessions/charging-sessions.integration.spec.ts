import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  ChargePointEventSubjects,
  chargingSessionUuidOf,
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  ErrorCode,
  type EventEnvelope,
  type ListChargingSessionsPayload,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import type { DeliveredEvent } from '@cpc/nats';
import type { RunningService } from '@cpc/service-runtime';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import { ChargingSessionEventsConsumer } from './charging-session-events.consumer.js';
import { ChargingSessionsService } from './charging-sessions.service.js';
import { type PlugOfController, startCommandServiceWithPlugs } from './testing/command-service-with-plugs.js';
import { DeliveredChargePointEvents } from './testing/delivered-charge-point-events.js';

let rig: ServiceTestRig;
/** The instance the rig runs, to hand its consumer a batch of events directly. */
let service: RunningService;

const tenantA: string = randomUUID();
const tenantB: string = randomUUID();
/** Plugs the stand-in assets-service knows: controller uuid → plugs ordered by connector id. */
const plugs = new Map<string, PlugOfController[]>();

function call<T>(subject: string, payload: unknown, tenantUuid = tenantA): Promise<T> {
  return rig.call<T>(subject, payload, tenantUuid);
}

function list(
  filter: ListChargingSessionsPayload['filter'] = {},
  extra: Partial<ListChargingSessionsPayload> = {},
  tenantUuid = tenantA,
) {
  return call<ChargingSessionPage>(
    ChargingSessionSubjects.list,
    { page: 1, limit: 50, orderBy: [], filter, ...extra },
    tenantUuid,
  );
}

async function publish(
  subject: string,
  controllerUuid: string,
  data: Record<string, unknown>,
  tenantUuid = tenantA,
): Promise<void> {
  const event: EventEnvelope<Record<string, unknown>> = {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid,
    data: { controllerUuid, ocppIdentity: 'CP', ...data },
  };
  await rig.eventBus.publish(subject, event);
}

const sessionOf = (controllerUuid: string, transactionId: string) => (page: ChargingSessionPage) =>
  page.items.find(
    (item) => item.controller_uuid === controllerUuid && item.ocpp_transaction_id === transactionId,
  );

beforeAll(async () => {
  ({ rig, service } = await startCommandServiceWithPlugs({
    plugsOf: (controllerUuid) => plugs.get(controllerUuid) ?? [],
    logLevel: 'warn',
  }));
});

afterAll(() => rig?.stop());

describe('charging sessions from transaction events', () => {
  it('1.6: started → updated → ended becomes one completed session with its plug and energy', async () => {
    const controllerUuid = randomUUID();
    const plugUuid = randomUUID();
    plugs.set(controllerUuid, [
      { uuid: randomUUID(), connector_id: 1, evse_id: 1 },
      { uuid: plugUuid, connector_id: 2, evse_id: 2 },
    ]);
    await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, {
      transactionId: '190000001',
      connectorId: 2,
      evseId: null,
      idTag: 'TAG-1',
      meterStartWh: 1000,
      startedAt: '2026-01-02T10:00:00.000Z',
    });
    const active = await eventually(
      () => list({ controller_uuid: controllerUuid }),
      (page) => sessionOf(controllerUuid, '190000001')(page)?.plug_uuid === plugUuid,
    );
    expect(sessionOf(controllerUuid, '190000001')(active)).toMatchObject({
      status: 'active',
      energy_wh: null,
      stopped_at: null,
    });

    await publish(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId: '190000001',
      meterWh: 3500,
      sampledAt: '2026-01-02T10:15:00.000Z',
    });
    await eventually(
      () => list({ controller_uuid: controllerUuid }),
      (page) => sessionOf(controllerUuid, '190000001')(page)?.energy_wh === 2500,
    );

    await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: '190000001',
      meterStopWh: 7500.5,
      stoppedAt: '2026-01-02T11:00:00.000Z',
      reason: 'EVDisconnected',
    });
    const done = await eventually(
      () => list({ controller_uuid: controllerUuid }),
      (page) => sessionOf(controllerUuid, '190000001')(page)?.status === 'completed',
    );
    const session = sessionOf(controllerUuid, '190000001')(done)!;
    expect(session).toEqual({
      // Derived from the transaction, so webhook-service names the same session.
      uuid: chargingSessionUuidOf(tenantA, controllerUuid, '190000001'),
      controller_uuid: controllerUuid,
      plug_uuid: plugUuid,
      connector_id: 2,
      evse_id: null,
      ocpp_transaction_id: '190000001',
      id_tag: 'TAG-1',
      status: 'completed',
      started_at: '2026-01-02T10:00:00Z',
      stopped_at: '2026-01-02T11:00:00Z',
      meter_start_wh: 1000,
      meter_stop_wh: 7500.5,
      energy_wh: 6500.5,
      stop_reason: 'EVDisconnected',
      peak_power_w: null,
      last_sample_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    await expect(
      call<ChargingSessionView>(ChargingSessionSubjects.get, { uuid: session.uuid }),
    ).resolves.toEqual(session);
  });

  it('2.0.1: finds the plug as the n-th of its EVSE; a repeated or late event changes nothing', async () => {
    const controllerUuid = randomUUID();
    const second = randomUUID();
    plugs.set(controllerUuid, [
      { uuid: randomUUID(), connector_id: 3, evse_id: 2 },
      { uuid: second, connector_id: 4, evse_id: 2 },
    ]);
    const started = {
      transactionId: 'tx-201',
      connectorId: 2,
      evseId: 2,
      idTag: 'TAG-2',
      meterStartWh: 100,
      startedAt: '2026-01-03T10:00:00.000Z',
    };
    // The end arrives before the start (a redelivery reordered them): the session still converges.
    await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: 'tx-201',
      meterStopWh: 900,
      stoppedAt: '2026-01-03T11:00:00.000Z',
      reason: null,
    });
    await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, started);
    await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, started);
    await publish(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId: 'tx-201',
      meterWh: 500,
      sampledAt: '2026-01-03T10:30:00.000Z',
    });
    const page = await eventually(
      () => list({ controller_uuid: controllerUuid }),
      (result) => sessionOf(controllerUuid, 'tx-201')(result)?.plug_uuid === second,
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      evse_id: 2,
      connector_id: 2,
      id_tag: 'TAG-2',
      status: 'completed',
      meter_start_wh: 100,
      meter_stop_wh: 900,
      energy_wh: 800,
    });
  });

  it('ignores other charge-point events and malformed ones', async () => {
    const controllerUuid = randomUUID();
    await publish(ChargePointEventSubjects.connectorStatus, controllerUuid, {
      connectorId: 1,
      evseId: null,
      status: 'Charging',
    });
    await publish(ChargePointEventSubjects.transactionStarted, 'not-a-uuid', { transactionId: 'x' });
    await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, {
      transactionId: 'tx-ok',
      connectorId: 0,
      evseId: null,
      idTag: null,
      meterStartWh: null,
      startedAt: '2026-01-04T10:00:00.000Z',
    });
    const page = await eventually(
      () => list({ controller_uuid: controllerUuid }),
      (result) => result.items.length === 1,
    );
    expect(page.items[0]).toMatchObject({
      ocpp_transaction_id: 'tx-ok',
      connector_id: null,
      plug_uuid: null,
    });
  });
});

describe('sessions that match what the charge point does', () => {
  const started = (transactionId: string, connectorId: number, evseId: number | null, startedAt: string) => ({
    transactionId,
    connectorId,
    evseId,
    idTag: 'TAG',
    meterStartWh: 0,
    startedAt,
  });
  const byTransaction = async (controllerUuid: string, settled: (page: ChargingSessionPage) => boolean) => {
    const page = await eventually(() => list({ controller_uuid: controllerUuid }), settled);
    return Object.fromEntries(page.items.map((item) => [item.ocpp_transaction_id, item]));
  };

  it("2.0.1: a start that names only the EVSE gets the EVSE's only plug", async () => {
    const controllerUuid = randomUUID();
    const plugUuid = randomUUID();
    plugs.set(controllerUuid, [{ uuid: plugUuid, connector_id: 1, evse_id: 1 }]);
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('evse-only', 0, 1, '2026-03-01T10:00:00.000Z'),
    );
    const sessions = await byTransaction(controllerUuid, (page) => page.items[0]?.plug_uuid === plugUuid);
    expect(sessions['evse-only']).toMatchObject({ evse_id: 1, connector_id: null, status: 'active' });
  });

  it('2.0.1: a later message that names the connector (or the EVSE) completes a session the start left unlinked', async () => {
    const controllerUuid = randomUUID();
    const [first, second] = [randomUUID(), randomUUID()];
    plugs.set(controllerUuid, [
      { uuid: first, connector_id: 1, evse_id: 1 },
      { uuid: second, connector_id: 2, evse_id: 1 },
    ]);
    // EVSE 1 has two plugs: the start alone cannot tell which.
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('two-plugs', 0, 1, '2026-03-02T10:00:00.000Z'),
    );
    // No EVSE at all in the start.
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('no-evse', 0, null, '2026-03-02T10:05:00.000Z'),
    );
    await byTransaction(controllerUuid, (page) => page.items.length === 2);
    await publish(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId: 'two-plugs',
      meterWh: null,
      sampledAt: '2026-03-02T10:01:00.000Z',
      evseId: 1,
      connectorId: 2,
    });
    await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: 'no-evse',
      meterStopWh: 10,
      stoppedAt: '2026-03-02T10:30:00.000Z',
      reason: 'Local',
      evseId: 1,
      connectorId: 1,
    });
    const sessions = await byTransaction(controllerUuid, (page) =>
      page.items.every((item) => item.plug_uuid !== null),
    );
    expect(sessions['two-plugs']).toMatchObject({ plug_uuid: second, evse_id: 1, connector_id: 2 });
    expect(sessions['two-plugs'].status).toBe('active');
    expect(sessions['no-evse']).toMatchObject({ plug_uuid: first, status: 'completed', connector_id: 1 });
  });

  it("a new transaction on a connector supersedes the one left open there; the charge point's own end still wins", async () => {
    const controllerUuid = randomUUID();
    const plugUuid = randomUUID();
    plugs.set(controllerUuid, [{ uuid: plugUuid, connector_id: 1, evse_id: 1 }]);
    for (const [transactionId, startedAt] of [
      ['1001', '2026-03-03T10:00:00.000Z'],
      ['1002', '2026-03-03T11:00:00.000Z'],
      ['1003', '2026-03-03T12:00:00.000Z'],
    ]) {
      await publish(
        ChargePointEventSubjects.transactionStarted,
        controllerUuid,
        started(transactionId, 1, null, startedAt),
      );
    }
    // A late redelivery of an even older start changes nothing: it ends at once.
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('1000', 1, null, '2026-03-03T09:00:00.000Z'),
    );
    const sessions = await byTransaction(
      controllerUuid,
      (page) => page.items.length === 4 && page.items.filter((item) => item.status === 'active').length === 1,
    );
    expect(sessions['1003']).toMatchObject({ status: 'active', plug_uuid: plugUuid });
    expect(sessions['1002']).toMatchObject({
      status: 'completed',
      stop_reason: 'superseded',
      stopped_at: '2026-03-03T12:00:00Z',
    });
    expect(sessions['1001']).toMatchObject({ status: 'completed', stop_reason: 'superseded' });
    expect(sessions['1000']).toMatchObject({ status: 'completed', stop_reason: 'superseded' });
    expect((await list({ plug_uuid: plugUuid, status: 'active' })).items).toHaveLength(1);

    await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: '1002',
      meterStopWh: 50,
      stoppedAt: '2026-03-03T11:30:00.000Z',
      reason: 'Reboot',
    });
    const after = await byTransaction(controllerUuid, (page) =>
      page.items.some((item) => item.stop_reason === 'Reboot'),
    );
    expect(after['1002']).toMatchObject({ stopped_at: '2026-03-03T11:30:00Z', meter_stop_wh: 50 });
  });

  it('a connector that reports Available after a boot ends the sessions the boot interrupted, and only those', async () => {
    const controllerUuid = randomUUID();
    plugs.set(controllerUuid, []);
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('interrupted', 1, null, '2026-03-04T10:00:00.000Z'),
    );
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('survived', 2, null, '2026-03-04T10:00:00.000Z'),
    );
    await byTransaction(controllerUuid, (page) => page.items.length === 2);
    await publish(ChargePointEventSubjects.booted, controllerUuid, {
      vendor: 'V',
      model: 'M',
      serialNumber: null,
      firmwareVersion: null,
    });
    // The session on connector 2 goes on after the boot; then both connectors report Available.
    await publish(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId: 'survived',
      meterWh: 100,
      sampledAt: '2026-03-04T10:30:00.000Z',
    });
    await publish(
      ChargePointEventSubjects.transactionStarted,
      controllerUuid,
      started('after-boot', 3, null, '2026-03-04T10:40:00.000Z'),
    );
    for (const connectorId of [1, 2, 3]) {
      await publish(ChargePointEventSubjects.connectorStatus, controllerUuid, {
        connectorId,
        evseId: null,
        status: 'Available',
        errorCode: 'NoError',
        reportedAt: '2026-03-04T10:45:00.000Z',
      });
    }
    const sessions = await byTransaction(
      controllerUuid,
      (page) => page.items.find((item) => item.ocpp_transaction_id === 'interrupted')?.status === 'completed',
    );
    expect(sessions.interrupted.stop_reason).toBe('charge_point_rebooted');
    expect(sessions.survived.status).toBe('active');
    expect(sessions['after-boot'].status).toBe('active');
  });

  // Bug (fixed): a 2.0.1 transaction authorized after its start (Started without idToken, then Updated with
  // triggerReason Authorized) kept no id tag: the Updated's token was never published nor stored
  // (transaction-event.handler.ts, TransactionUpdatedEvent without idTag).
  it('2.0.1: the id token of a later message names who charges, before or after the start; the first one stays', async () => {
    const controllerUuid = randomUUID();
    plugs.set(controllerUuid, []);
    const start = (transactionId: string, evseId: number) =>
      publish(ChargePointEventSubjects.transactionStarted, controllerUuid, {
        transactionId,
        connectorId: 1,
        evseId,
        idTag: null,
        meterStartWh: null,
        startedAt: '2026-03-06T10:00:00.000Z',
      });
    const authorized = (transactionId: string, idTag: string) =>
      publish(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
        transactionId,
        meterWh: null,
        sampledAt: '2026-03-06T10:01:00.000Z',
        idTag,
      });
    await start('after-start', 1);
    await authorized('after-start', 'TOKEN-1');
    await authorized('after-start', 'TOKEN-2');
    await authorized('before-start', 'TOKEN-3');
    await start('before-start', 2);
    const sessions = await byTransaction(
      controllerUuid,
      (page) =>
        page.items.length === 2 &&
        page.items.every((item) => item.started_at !== null && item.id_tag !== null),
    );
    expect(sessions['after-start']).toMatchObject({ id_tag: 'TOKEN-1', status: 'active' });
    expect(sessions['before-start']).toMatchObject({ id_tag: 'TOKEN-3', status: 'active' });
  });
});

describe('a batch of charge-point events', () => {
  const events = new DeliveredChargePointEvents(tenantA);
  const handleBatch = (batch: DeliveredEvent[]) =>
    service.app.get(ChargingSessionEventsConsumer, { strict: false }).handleBatch(batch);

  it('ends the sessions a boot interrupted, and runs no session statement for a controller without one', async () => {
    const [withSession, without] = [randomUUID(), randomUUID()];
    plugs.set(withSession, []);
    const { subject, event } = events.transactionStarted(withSession, 'open', 1);
    await rig.eventBus.publish(subject, event);
    await eventually(
      () => list({ controller_uuid: withSession }),
      (page) => page.items.length === 1,
    );
    const sessions = service.app.get(ChargingSessionsService, { strict: false });
    const markRebooted = jest.spyOn(sessions, 'markRebooted');
    const endRebooted = jest.spyOn(sessions, 'endRebootedOnConnector');
    try {
      await handleBatch([
        events.boot(without),
        events.boot(withSession),
        events.connectorStatus(without, 1),
        events.connectorStatus(withSession, 1),
        events.connectorStatus(without, 2),
      ]);
      // Of these two controllers (the stream's consumer may still be busy with earlier tests' events).
      const ofBatch = (calls: unknown[][]) =>
        calls
          .map(([, controllerUuid]) => controllerUuid)
          .filter((uuid) => uuid === withSession || uuid === without);
      expect(ofBatch(markRebooted.mock.calls)).toEqual([withSession]);
      expect(ofBatch(endRebooted.mock.calls)).toEqual([withSession]);
    } finally {
      markRebooted.mockRestore();
      endRebooted.mockRestore();
    }
    const [session] = (await list({ controller_uuid: withSession })).items;
    expect(session).toMatchObject({ status: 'completed', stop_reason: 'charge_point_rebooted' });
    expect((await list({ controller_uuid: without })).items).toEqual([]);
  });

  it('marks and ends a session that a transaction earlier in the same batch opened', async () => {
    const controllerUuid = randomUUID();
    plugs.set(controllerUuid, []);
    await handleBatch([
      // Before the transaction, the controller has no session: nothing to end.
      events.connectorStatus(controllerUuid, 1),
      events.transactionStarted(controllerUuid, 'in-batch', 1),
      events.boot(controllerUuid),
      events.connectorStatus(controllerUuid, 1),
    ]);
    const [session] = (await list({ controller_uuid: controllerUuid })).items;
    expect(session).toMatchObject({
      ocpp_transaction_id: 'in-batch',
      status: 'completed',
      stop_reason: 'charge_point_rebooted',
    });
  });
});

describe('reading charging sessions', () => {
  const controllerUuid = randomUUID();

  beforeAll(async () => {
    for (let index = 0; index < 5; index++) {
      await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, {
        transactionId: `r-${index}`,
        connectorId: index + 1,
        evseId: null,
        idTag: index % 2 === 0 ? 'EVEN' : 'ODD',
        meterStartWh: 0,
        startedAt: `2026-02-0${index + 1}T10:00:00.000Z`,
      });
    }
    await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: 'r-0',
      meterStopWh: 10,
      stoppedAt: '2026-02-01T11:00:00.000Z',
      reason: 'Local',
    });
    await eventually(
      () => list({ controller_uuid: controllerUuid, status: 'completed' }),
      (page) => page.items.length === 1,
    );
  });

  it('lists newest start first by default, pages, and filters', async () => {
    const first = await list({ controller_uuid: controllerUuid }, { limit: 2 });
    expect(first.items.map((item) => item.ocpp_transaction_id)).toEqual(['r-4', 'r-3']);
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: 3,
      page_size: 2,
      has_more: true,
      cursor: { next: expect.any(String) },
    });
    const last = await list({ controller_uuid: controllerUuid }, { limit: 2, page: 3 });
    expect(last.items.map((item) => item.ocpp_transaction_id)).toEqual(['r-0']);
    expect(last.pagination.has_more).toBe(false);

    const ascending = await list(
      { controller_uuid: controllerUuid },
      { orderBy: [{ field: 'started_at', direction: 'asc' }] },
    );
    expect(ascending.items.map((item) => item.ocpp_transaction_id)).toEqual([
      'r-0',
      'r-1',
      'r-2',
      'r-3',
      'r-4',
    ]);
    expect((await list({ controller_uuid: controllerUuid, status: 'active' })).items).toHaveLength(4);
    expect(
      (await list({ controller_uuid: controllerUuid, id_tag: 'ODD' })).items.map(
        (item) => item.ocpp_transaction_id,
      ),
    ).toEqual(['r-3', 'r-1']);
    expect((await list({ controller_uuid: controllerUuid, ocpp_transaction_id: 'r-2' })).items).toHaveLength(
      1,
    );
    const window = await list({
      controller_uuid: controllerUuid,
      started_from: '2026-02-02T00:00:00Z',
      started_to: '2026-02-04T00:00:00Z',
    });
    expect(window.items.map((item) => item.ocpp_transaction_id)).toEqual(['r-2', 'r-1']);
  });

  it("keeps tenants apart: another tenant's session is not found, exactly like a missing one", async () => {
    const [session] = (await list({ controller_uuid: controllerUuid }, { limit: 1 })).items;
    expect((await list({ controller_uuid: controllerUuid }, {}, tenantB)).items).toEqual([]);
    for (const [uuid, tenantUuid] of [
      [session.uuid, tenantB] as const,
      [randomUUID(), tenantA],
      ['not-a-uuid', tenantA],
    ]) {
      const failure = await call(ChargingSessionSubjects.get, { uuid }, tenantUuid).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe(ErrorCode.NotFound);
    }
  });
});

describe('reading charging sessions by cursor', () => {
  const controllerUuid = randomUUID();
  type Order = ListChargingSessionsPayload['orderBy'];
  const ids = (page: ChargingSessionPage) => page.items.map((item) => item.ocpp_transaction_id);
  const mine = ({ filter, ...extra }: Partial<ListChargingSessionsPayload> = {}, tenantUuid = tenantA) =>
    list({ controller_uuid: controllerUuid, ...filter }, extra, tenantUuid);

  /** Follows `pagination.cursor[link]` from `start` until it ends: each page's transaction ids, and the last page. */
  const walk = async (
    start: ChargingSessionPage,
    link: 'next' | 'prev',
    request: Partial<ListChargingSessionsPayload>,
  ) => {
    const pages = [ids(start)];
    let last = start;
    let cursor = start.pagination.cursor?.[link];
    while (cursor !== undefined) {
      last = await mine({ ...request, cursor });
      expect(last.pagination).toEqual({
        page_size: request.limit,
        has_more: expect.any(Boolean),
        cursor: expect.any(Object),
      });
      pages.push(ids(last));
      cursor = last.pagination.cursor?.[link];
    }
    return { pages, last };
  };

  beforeAll(async () => {
    // Six started sessions (c-2 and c-3 at the same second: their order is by uuid) and two whose start is unknown.
    const starts = ['01', '02', '03', '03', '04', '05'];
    for (const [index, day] of starts.entries()) {
      await publish(ChargePointEventSubjects.transactionStarted, controllerUuid, {
        transactionId: `c-${index}`,
        connectorId: index + 1,
        evseId: null,
        idTag: index % 2 === 0 ? 'EVEN' : 'ODD',
        meterStartWh: 0,
        startedAt: `2026-03-${day}T10:00:00.000Z`,
      });
    }
    for (const transactionId of ['u-0', 'u-1']) {
      await publish(ChargePointEventSubjects.transactionEnded, controllerUuid, {
        transactionId,
        meterStopWh: 10,
        stoppedAt: '2026-03-07T11:00:00.000Z',
        reason: 'Local',
      });
    }
    await eventually(
      () => mine(),
      (page) => page.items.length === 8,
    );
  });

  it.each<[string, Order]>([
    ['newest start first (the default)', []],
    ['oldest start first', [{ field: 'started_at', direction: 'asc' }]],
    ['newest created first', [{ field: 'created_at', direction: 'desc' }]],
    [
      'by start, then created',
      [
        { field: 'started_at', direction: 'desc' },
        { field: 'created_at', direction: 'asc' },
      ],
    ],
  ])(
    'walks %s forwards and back, each session once, as the numbered pages list them',
    async (_label, orderBy) => {
      const all = ids(await mine({ orderBy }));
      expect(all).toHaveLength(8);
      const forwards = await walk(await mine({ orderBy, limit: 3 }), 'next', { orderBy, limit: 3 });
      expect(forwards.pages.map((page) => page.length)).toEqual([3, 3, 2]);
      expect(forwards.pages.flat()).toEqual(all);
      expect(forwards.last.pagination.has_more).toBe(false);
      const backwards = await walk(forwards.last, 'prev', { orderBy, limit: 3 });
      expect(backwards.pages.reverse()).toEqual(forwards.pages);
      expect(backwards.last.pagination.cursor?.prev).toBeUndefined();
    },
  );

  it('lists the sessions whose start is unknown last in either direction', async () => {
    expect(ids(await mine()).slice(0, 6)).toEqual([
      'c-5',
      'c-4',
      expect.any(String),
      expect.any(String),
      'c-1',
      'c-0',
    ]);
    expect(
      ids(await mine())
        .slice(6)
        .sort(),
    ).toEqual(['u-0', 'u-1']);
    const ascending = ids(await mine({ orderBy: [{ field: 'started_at', direction: 'asc' }] }));
    expect(ascending.slice(0, 2)).toEqual(['c-0', 'c-1']);
    expect(ascending.slice(6).sort()).toEqual(['u-0', 'u-1']);
  });

  it('keeps the filters on every page', async () => {
    const filter = { id_tag: 'EVEN', started_from: '2026-03-02T00:00:00Z' };
    const all = ids(await mine({ filter }));
    expect(all).toEqual(['c-4', 'c-2']);
    const forwards = await walk(await mine({ filter, limit: 1 }), 'next', { filter, limit: 1 });
    expect(forwards.pages).toEqual([['c-4'], ['c-2']]);
  });

  it("refuses another filter's, order's or tenant's cursor and a malformed one as a validation error on cursor", async () => {
    const cursor = (await mine({ limit: 2 })).pagination.cursor?.next as string;
    for (const attempt of [
      () => mine({ limit: 2, cursor, filter: { status: 'active' } }),
      () => mine({ limit: 2, cursor, orderBy: [{ field: 'started_at', direction: 'asc' }] }),
      () => mine({ limit: 2, cursor }, tenantB),
      () => mine({ limit: 2, cursor: 'not-a-cursor' }),
      () => mine({ limit: 2, cursor: Buffer.from('{"v":1}').toString('base64url') }),
    ]) {
      const failure = await attempt().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe(ErrorCode.ValidationFailed);
      expect((failure as DomainError).issues).toEqual([
        expect.objectContaining({ parameter: 'cursor', errorKey: 'invalid_cursor' }),
      ]);
    }
  });
});
