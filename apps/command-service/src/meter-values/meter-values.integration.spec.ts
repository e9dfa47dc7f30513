import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  ChargePointEventSubjects,
  type ChargingSessionPage,
  ChargingSessionSubjects,
  ErrorCode,
  type MeterSample,
  type MeterValuePage,
  TelemetryEventSubjects,
} from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import { startCommandServiceWithPlugs } from '../charging-sessions/testing/command-service-with-plugs.js';

let rig: ServiceTestRig;
const tenantA = randomUUID();
const tenantB = randomUUID();

beforeAll(async () => {
  ({ rig } = await startCommandServiceWithPlugs({ logLevel: 'warn' }));
});

afterAll(() => rig?.stop());

const sample = (sampledAt: string, measurand: string, value: number, extra: Partial<MeterSample> = {}) => ({
  sampledAt,
  measurand,
  phase: null,
  location: 'Outlet',
  unit: measurand.startsWith('Power') ? 'kW' : 'Wh',
  context: 'Sample.Periodic',
  value,
  ...extra,
});

async function publishSamples(
  controllerUuid: string,
  transactionId: string | null,
  samples: unknown[],
  tenantUuid = tenantA,
): Promise<void> {
  await rig.eventBus.publish(TelemetryEventSubjects.meterValues, {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid,
    data: { controllerUuid, ocppIdentity: 'CP', transactionId, evseId: null, connectorId: 1, samples },
  });
}

describe('meter values of charging sessions', () => {
  const controllerUuid = randomUUID();
  let sessionUuid: string;

  beforeAll(async () => {
    await rig.eventBus.publish(ChargePointEventSubjects.transactionStarted, {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: tenantA,
      data: {
        controllerUuid,
        ocppIdentity: 'CP',
        transactionId: 'mv-1',
        connectorId: 1,
        evseId: null,
        idTag: 'TAG',
        meterStartWh: 0,
        startedAt: '2026-05-01T10:00:00.000Z',
      },
    });
    // Out of order, and with a sample no one could store (not a time): it is left out, the rest kept.
    await publishSamples(controllerUuid, 'mv-1', [
      sample('2026-05-01T10:02:00.000Z', 'Energy.Active.Import.Register', 2000),
      sample('2026-05-01T10:02:00.000Z', 'Power.Active.Import', 11),
      sample('2026-05-01T10:02:00.000Z', 'Power.Active.Import', 3.7, { phase: 'L1' }),
      { ...sample('2026-05-01T10:02:00.000Z', 'Voltage', 230), sampledAt: 'yesterday' },
    ]);
    await publishSamples(controllerUuid, 'mv-1', [
      sample('2026-05-01T10:01:00.000Z', 'Energy.Active.Import.Register', 1000),
      sample('2026-05-01T10:01:00.000Z', 'Power.Active.Import', 7.4),
    ]);
    // Outside the transaction: the controller's, not the session's.
    await publishSamples(controllerUuid, null, [sample('2026-05-01T10:01:30.000Z', 'Voltage', 231)]);
    const sessions = await eventually(
      () =>
        rig.call<ChargingSessionPage>(
          ChargingSessionSubjects.list,
          { page: 1, limit: 50, orderBy: [], filter: { controller_uuid: controllerUuid } },
          tenantA,
        ),
      (page) => page.items[0]?.last_sample_at === '2026-05-01T10:02:00Z',
    );
    sessionUuid = sessions.items[0].uuid;
  });

  const list = (filter: Record<string, string> = {}, page = 1, limit = 50, tenantUuid = tenantA) =>
    rig.call<MeterValuePage>(
      ChargingSessionSubjects.listMeterValues,
      { uuid: sessionUuid, page, limit, filter },
      tenantUuid,
    );

  it("keeps every sampled value of the session, served oldest first, and sums up the session's peak power", async () => {
    const all = await eventually(
      () => list(),
      (page) => page.items.length === 5,
    );
    expect(all.items.map((item) => [item.sampled_at, item.measurand, item.phase, item.value])).toEqual([
      ['2026-05-01T10:01:00Z', 'Energy.Active.Import.Register', null, 1000],
      ['2026-05-01T10:01:00Z', 'Power.Active.Import', null, 7.4],
      ['2026-05-01T10:02:00Z', 'Energy.Active.Import.Register', null, 2000],
      ['2026-05-01T10:02:00Z', 'Power.Active.Import', null, 11],
      ['2026-05-01T10:02:00Z', 'Power.Active.Import', 'L1', 3.7],
    ]);
    expect(all.items[0]).toEqual({
      sampled_at: '2026-05-01T10:01:00Z',
      measurand: 'Energy.Active.Import.Register',
      phase: null,
      location: 'Outlet',
      unit: 'Wh',
      context: 'Sample.Periodic',
      value: 1000,
      evse_id: null,
      connector_id: 1,
    });
    const session = await rig.call<{ peak_power_w: number | null }>(
      ChargingSessionSubjects.get,
      { uuid: sessionUuid },
      tenantA,
    );
    // The whole charger's 11 kW; the phase value does not count.
    expect(session.peak_power_w).toBe(11000);
  });

  it('pages and filters by measurand and sample time', async () => {
    const second = await list({}, 2, 2);
    expect(second.items.map((item) => item.value)).toEqual([2000, 11]);
    expect(second.pagination).toEqual({
      page: 2,
      total_pages: 3,
      page_size: 2,
      has_more: true,
      cursor: { prev: expect.any(String), next: expect.any(String) },
    });
    const power = await list({ measurand: 'Power.Active.Import' });
    expect(power.items.map((item) => item.value)).toEqual([7.4, 11, 3.7]);
    const window = await list({ sampled_from: '2026-05-01T10:01:30Z', sampled_to: '2026-05-01T10:03:00Z' });
    expect(window.items).toHaveLength(3);
  });

  const byCursor = (cursor: string, filter: Record<string, string> = {}, tenantUuid = tenantA) =>
    rig.call<MeterValuePage>(
      ChargingSessionSubjects.listMeterValues,
      { uuid: sessionUuid, page: 1, limit: 2, filter, cursor },
      tenantUuid,
    );
  const values = (page: MeterValuePage) => page.items.map((item) => item.value);
  const links = (page: MeterValuePage) => page.pagination.cursor ?? {};

  it('walks by cursor forwards and back over samples that share their time (keyset on time, event, index)', async () => {
    const first = await list({}, 1, 2);
    expect(values(first)).toEqual([1000, 7.4]);
    const second = await byCursor(links(first).next!);
    expect(values(second)).toEqual([2000, 11]);
    expect(second.pagination).toEqual({
      page_size: 2,
      has_more: true,
      cursor: { prev: expect.any(String), next: expect.any(String) },
    });
    const third = await byCursor(links(second).next!);
    expect(values(third)).toEqual([3.7]);
    expect(third.pagination).toEqual({ page_size: 2, has_more: false, cursor: { prev: expect.any(String) } });
    const backToSecond = await byCursor(links(third).prev!);
    expect(values(backToSecond)).toEqual([2000, 11]);
    const backToFirst = await byCursor(links(backToSecond).prev!);
    expect(values(backToFirst)).toEqual([1000, 7.4]);
    expect(links(backToFirst).prev).toBeUndefined();
  });

  it('refuses a cursor of another filter or garbage with a validation error on cursor', async () => {
    const cursor = links(await list({}, 1, 2)).next!;
    // Another tenant does not get as far as the cursor: the session is not theirs.
    const foreign = await byCursor(cursor, {}, tenantB).catch((error: unknown) => error);
    expect((foreign as DomainError).code).toBe(ErrorCode.NotFound);
    for (const attempt of [
      () => byCursor(cursor, { measurand: 'Voltage' }),
      () => byCursor('not-a-cursor'),
      () => byCursor(Buffer.from('{"v":1}').toString('base64url')),
    ]) {
      const failure = await attempt().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe(ErrorCode.ValidationFailed);
      expect((failure as DomainError).issues).toEqual([expect.objectContaining({ parameter: 'cursor' })]);
    }
  });

  it("answers another tenant's session, a missing one and a malformed uuid as not found", async () => {
    for (const [uuid, tenantUuid] of [
      [sessionUuid, tenantB],
      [randomUUID(), tenantA],
      ['not-a-uuid', tenantA],
    ]) {
      const failure = await rig
        .call(ChargingSessionSubjects.listMeterValues, { uuid, page: 1, limit: 10, filter: {} }, tenantUuid)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DomainError);
      expect((failure as DomainError).code).toBe(ErrorCode.NotFound);
    }
  });
});
