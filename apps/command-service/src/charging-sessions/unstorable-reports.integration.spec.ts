import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  ChargePointEventSubjects,
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  type MeterSample,
  type MeterValuePage,
  type MeterValuesEvent,
} from '@cpc/contracts';
import type { DeliveredEvent } from '@cpc/nats';
import type { ServiceTestRig } from '@cpc/testing';
import {
  type CommandServiceWithPlugs,
  startCommandServiceWithPlugs,
} from './testing/command-service-with-plugs.js';
import { DeliveredChargePointEvents } from './testing/delivered-charge-point-events.js';

/**
 * What a charge point may report that PostgreSQL cannot take as it is: each value passes the gateway's OCPP schema
 * validation (ocpp-rpc strict mode) and reaches command-service unchanged. A year 0000 (`format: date-time` takes it,
 * PostgreSQL has no year 0), an integer meter reading of 10^13 Wh or more (1.6 `meterStart` / `meterStop` are
 * unbounded integers; the columns are numeric(16, 3)), a negative 1.6 connector id (unbounded integer; the column
 * checks >= 0), a 2.0.1 EVSE id beyond PostgreSQL's integer. Such an event must be stored as far as it can be, or
 * dropped with a warning, never redelivered forever, and never hold back the valid events handled with it.
 */
let under: CommandServiceWithPlugs;
let rig: ServiceTestRig;
const tenantUuid = randomUUID();

beforeAll(async () => {
  under = await startCommandServiceWithPlugs();
  rig = under.rig;
});

afterAll(() => rig?.stop());

const sessionsOf = async (controllerUuid: string): Promise<Record<string, ChargingSessionView>> => {
  const page = await rig.call<ChargingSessionPage>(
    ChargingSessionSubjects.list,
    { page: 1, limit: 50, orderBy: [], filter: { controller_uuid: controllerUuid } },
    tenantUuid,
  );
  return Object.fromEntries(page.items.map((item) => [item.ocpp_transaction_id, item]));
};

describe('transaction events with values PostgreSQL cannot store', () => {
  const events = new DeliveredChargePointEvents(tenantUuid);
  const handleBatch = (batch: DeliveredEvent[]) => under.handleSessionEvents(batch);
  const started = (controllerUuid: string, transactionId: string, data: Record<string, unknown> = {}) =>
    events.event(ChargePointEventSubjects.transactionStarted, controllerUuid, {
      transactionId,
      connectorId: 1,
      evseId: null,
      idTag: 'TAG',
      meterStartWh: 1000,
      startedAt: '2026-04-01T10:00:00.000Z',
      reservationId: null,
      ...data,
    });
  const ended = (controllerUuid: string, transactionId: string, data: Record<string, unknown> = {}) =>
    events.event(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId,
      meterStopWh: 5000,
      stoppedAt: '2026-04-01T11:00:00.000Z',
      reason: 'Local',
      ...data,
    });

  // Bug (fixed): a reading beyond numeric(16, 3) failed the session's upsert with a data exception, and the consumer
  // redelivered the event every second for ever (charging-session-events.consumer.ts handleBatch: every failure went
  // into `redeliver`; the readings went to the columns unchecked). Now storable-values.ts leaves such a number out.
  it('1.6: a meter reading of 10^13 Wh or more is left out, the rest of the session kept, nothing redelivered', async () => {
    const controllerUuid = randomUUID();
    const outcome = await handleBatch([
      started(controllerUuid, '1', { meterStartWh: 10_000_000_000_000 }),
      started(controllerUuid, '2', { connectorId: 2 }),
      ended(controllerUuid, '2', { meterStopWh: -99_999_999_999_999 }),
      events.event(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
        transactionId: '2',
        meterWh: 2 ** 53,
        sampledAt: '2026-04-01T10:30:00.000Z',
      }),
    ]);
    expect([...outcome.redeliver]).toEqual([]);
    const sessions = await sessionsOf(controllerUuid);
    expect(sessions['1']).toMatchObject({ id_tag: 'TAG', connector_id: 1, meter_start_wh: null });
    expect(sessions['2']).toMatchObject({
      status: 'completed',
      meter_start_wh: 1000,
      meter_stop_wh: null,
      energy_wh: null,
      stop_reason: 'Local',
    });
  });

  // Bug (fixed): a negative connector id broke the CHECK (connector_id >= 0), an EVSE id beyond 2^31 - 1 the integer
  // column: redelivered for ever, as above (charging-sessions.service.ts connectorOrNull passed both on).
  it('1.6: a negative connector id counts as no connector, 2.0.1: an EVSE id beyond an integer as no EVSE', async () => {
    const controllerUuid = randomUUID();
    const outcome = await handleBatch([
      started(controllerUuid, '1', { connectorId: -1 }),
      started(controllerUuid, 'tx-201', { connectorId: 1, evseId: 2 ** 31 }),
      events.event(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
        transactionId: 'tx-201',
        meterWh: null,
        sampledAt: '2026-04-01T10:30:00.000Z',
        evseId: 2 ** 40,
        connectorId: -3,
      }),
    ]);
    expect([...outcome.redeliver]).toEqual([]);
    const sessions = await sessionsOf(controllerUuid);
    expect(sessions['1']).toMatchObject({ id_tag: 'TAG', connector_id: null, status: 'active' });
    expect(sessions['tx-201']).toMatchObject({ connector_id: 1, evse_id: null, status: 'active' });
  });

  // Bug (fixed): a start, end or reading at year 0000 failed with "date/time field value out of range" and was
  // redelivered for ever, as above. Now a data exception drops the event with a warning.
  it('a time in year 0000 (valid to OCPP, not to PostgreSQL) is dropped with a warning, not redelivered for ever', async () => {
    const controllerUuid = randomUUID();
    const outcome = await handleBatch([
      started(controllerUuid, '1', { startedAt: '0000-01-01T00:00:00Z' }),
      started(controllerUuid, '2'),
      ended(controllerUuid, '2', { stoppedAt: '0000-01-01T00:00:00Z' }),
      events.event(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
        transactionId: '2',
        meterWh: 3000,
        sampledAt: '0000-01-01T00:00:00Z',
      }),
    ]);
    expect([...outcome.redeliver]).toEqual([]);
    const sessions = await sessionsOf(controllerUuid);
    expect(sessions['2']).toMatchObject({ status: 'active', meter_start_wh: 1000, energy_wh: null });
  });

  // Bug (fixed): a start at a leap second with a fraction (`23:59:60.5`, which OCPP's date-time format takes) failed
  // with a data exception and was dropped: PostgreSQL reads `:60` as the next minute, but refuses `:60.5`. Now every
  // time of a transaction event at a leap second is the second after it (storable-values.ts withoutLeapSecond).
  it('a start and an end at a leap second are stored as of the second after it', async () => {
    const controllerUuid = randomUUID();
    const outcome = await handleBatch([
      started(controllerUuid, 'leap', { startedAt: '2016-12-31T23:59:60.500Z' }),
      ended(controllerUuid, 'leap', { stoppedAt: '2017-01-01T00:59:60+01:00' }),
    ]);
    expect([...outcome.redeliver]).toEqual([]);
    const sessions = await sessionsOf(controllerUuid);
    expect(sessions.leap).toMatchObject({
      started_at: '2017-01-01T00:00:00Z',
      stopped_at: '2017-01-01T00:00:00Z',
      meter_start_wh: 1000,
    });
  });

  // Bug (fixed): a 2.0.1 transaction id with a NUL character (the schema allows any string of up to 36) failed every
  // statement ("invalid byte sequence for encoding UTF8: 0x00") and was redelivered for ever, as above.
  it('a transaction id PostgreSQL cannot store (a NUL character) is dropped with a warning', async () => {
    const controllerUuid = randomUUID();
    const outcome = await handleBatch([
      started(controllerUuid, 'tx\u0000nul'),
      started(controllerUuid, 'tx-fine'),
    ]);
    expect([...outcome.redeliver]).toEqual([]);
    expect(Object.keys(await sessionsOf(controllerUuid))).toEqual(['tx-fine']);
  });
});

describe('meter values with values PostgreSQL cannot store', () => {
  const sample = (extra: Partial<MeterSample> = {}): MeterSample => ({
    sampledAt: '2026-04-01T10:05:00.000Z',
    measurand: 'Energy.Active.Import.Register',
    phase: null,
    location: 'Outlet',
    unit: 'Wh',
    context: 'Sample.Periodic',
    value: 1234,
    ...extra,
  });
  const meterEvent = (
    controllerUuid: string,
    transactionId: string,
    samples: MeterSample[],
  ): MeterValuesEvent => ({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid,
    data: { controllerUuid, ocppIdentity: 'CP', transactionId, evseId: null, connectorId: 1, samples },
  });
  const handle = (event: MeterValuesEvent) => under.handleMeterValues(event);
  const valuesOf = async (controllerUuid: string, transactionId: string) => {
    const sessions = await sessionsOf(controllerUuid);
    const page = await rig.call<MeterValuePage>(
      ChargingSessionSubjects.listMeterValues,
      { uuid: sessions[transactionId].uuid, page: 1, limit: 50, filter: {} },
      tenantUuid,
    );
    return { session: sessions[transactionId], values: page.items };
  };

  /**
   * Writes `good` events and one `bad` one at once: two groups are written at a time (meterValueInsertsInFlight), so
   * the first two go alone and the rest, the bad one among them, in one group.
   */
  const handleTogether = async (
    controllerUuid: string,
    transactionId: string,
    bad: MeterSample[],
    good: MeterSample[],
  ) => {
    const batch = good.map((one) => meterEvent(controllerUuid, transactionId, [one]));
    batch.splice(3, 0, meterEvent(controllerUuid, transactionId, bad));
    const results = await Promise.allSettled(batch.map(handle));
    return results.map((result) => result.status);
  };

  // Bug (fixed): a sample at year 0000 passed isSample (Date.parse reads it; meter-value-events.consumer.ts) and failed
  // its group's INSERT, so every event of the group failed, was redelivered and grouped with it again
  // (meter-value-batch.writer.ts storeGroup). Now the sample is left out, and a group that fails on a data exception
  // is written event by event.
  it('a sample in year 0000 is left out; the rest of its event and the events grouped with it are stored', async () => {
    const controllerUuid = randomUUID();
    const statuses = await handleTogether(
      controllerUuid,
      'mv',
      [sample({ value: 100, sampledAt: '0000-01-01T00:00:00Z' }), sample({ value: 101 })],
      [1, 2, 3, 4, 5].map((value) => sample({ value, sampledAt: `2026-04-01T10:0${value}:00.000Z` })),
    );
    expect(statuses).toEqual(Array(6).fill('fulfilled'));
    const { values } = await valuesOf(controllerUuid, 'mv');
    expect(values.map((value) => value.value).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 101]);
  });

  // Bug (fixed): a sample at a leap second (`…T23:59:60Z`, which OCPP's date-time format takes) was left out as
  // malformed: JavaScript reads no `:60` (meter-value-events.consumer.ts isSample, Date.parse gives NaN). Now it is
  // stored as of the second after it, as PostgreSQL reads `:60` (storable-values.ts withoutLeapSecond).
  it('a sample at a leap second is stored as of the second after it, and counts for its session', async () => {
    const controllerUuid = randomUUID();
    await handle(
      meterEvent(controllerUuid, 'leap', [
        sample({ value: 1, sampledAt: '2016-12-31T23:59:59Z' }),
        sample({ value: 2, sampledAt: '2016-12-31T23:59:60Z' }),
        sample({ value: 3, sampledAt: '2016-12-31T23:59:60.250Z' }),
      ]),
    );
    const { session, values } = await valuesOf(controllerUuid, 'leap');
    expect(values.map((value) => [value.sampled_at, value.value])).toEqual([
      ['2016-12-31T23:59:59Z', 1],
      ['2017-01-01T00:00:00Z', 2],
      ['2017-01-01T00:00:00.250Z', 3],
    ]);
    expect(session.last_sample_at).toBe('2017-01-01T00:00:00Z');
  });

  // Bug (fixed): a Power.Active.Import beyond numeric(16, 3) failed the sessions' summary upsert (peak_power_w) for its
  // whole group, as above (meter-value-batch.writer.ts summarize took every power as a peak).
  it('a power of 10^13 W or more is stored as sampled but is no peak power; the events grouped with it are stored', async () => {
    const controllerUuid = randomUUID();
    const power = (value: number, unit = 'W') => sample({ measurand: 'Power.Active.Import', unit, value });
    const statuses = await handleTogether(
      controllerUuid,
      'peak',
      [power(1e10, 'kW')],
      [7_000, 11_000, 7_100, 7_200, 7_300].map((value) => power(value)),
    );
    expect(statuses).toEqual(Array(6).fill('fulfilled'));
    const { session, values } = await valuesOf(controllerUuid, 'peak');
    expect(values).toHaveLength(6);
    expect(session.peak_power_w).toBe(11_000);
  });

  // The same, for a value no check here foresees: the group is written again event by event, and only the event
  // PostgreSQL refuses is left out.
  it('an event PostgreSQL refuses (a transaction id with a NUL character) is left out, its group stored', async () => {
    const controllerUuid = randomUUID();
    const batch = [1, 2, 3, 4, 5].map((value) => meterEvent(controllerUuid, 'nul', [sample({ value })]));
    batch.splice(3, 0, meterEvent(controllerUuid, 'nul\u0000', [sample({ value: 100 })]));
    const results = await Promise.allSettled(batch.map(handle));
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('fulfilled'));
    const { values } = await valuesOf(controllerUuid, 'nul');
    expect(values.map((value) => value.value).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});
