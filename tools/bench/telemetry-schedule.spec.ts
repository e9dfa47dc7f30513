import { createRequire } from 'node:module';
import {
  bootNotification,
  type Call,
  chargingCount,
  cpuMsPerMessage,
  firstDelayMs,
  heartbeat,
  isCharging,
  LatencyHistogram,
  meterValues,
  multiplierFor,
  offeredRates,
  type OcppVersion,
  perSecond,
  receiptToStoredMs,
  statusNotification,
  stepIntervals,
  type TelemetryPlan,
  transactionStart,
  versionOf,
} from './telemetry-schedule.js';

/** Issue 24's flood: 20,000 charge points, 10 % charging, heartbeats every 60 s, meter values every 10 s. */
const FLOOD: TelemetryPlan = {
  chargePoints: 20_000,
  chargingShare: 0.1,
  heartbeatSeconds: 60,
  meterSeconds: 10,
  measurands: 4,
  statusSeconds: 600,
};

describe('who charges', () => {
  it('picks the share evenly, as many 1.6 as 2.0.1', () => {
    const charging = Array.from({ length: 20_000 }, (_, index) => index).filter((index) =>
      isCharging(index, 0.1),
    );
    expect(charging).toHaveLength(2000);
    expect(charging.filter((index) => versionOf(index) === 'ocpp1.6')).toHaveLength(1000);
    // Spread over the fleet, so every child process of 5,000 has its share.
    expect(charging.filter((index) => index < 5000)).toHaveLength(500);
  });

  it('has everyone charge at share 1', () => {
    expect(chargingCount(200, 1)).toBe(200);
    expect(chargingCount(19_900, 0.1)).toBe(1990);
  });
});

describe('rates', () => {
  it('divides every interval by the multiplier', () => {
    expect(stepIntervals(FLOOD, 1)).toEqual({ heartbeatMs: 60_000, meterMs: 10_000, statusMs: 600_000 });
    expect(stepIntervals(FLOOD, 5)).toEqual({ heartbeatMs: 12_000, meterMs: 2000, statusMs: 120_000 });
  });

  it('offers heartbeats of all, meter values of the charging ones, status changes of all', () => {
    expect(offeredRates(FLOOD, 1)).toEqual({
      heartbeats: 333.33,
      meterValues: 200,
      statusNotifications: 33.33,
      messages: 566.67,
      samples: 800,
    });
    expect(offeredRates(FLOOD, 5).messages).toBe(2833.33);
  });

  it("counts the charge points that are there (the open-file limit's 19,900)", () => {
    expect(offeredRates(FLOOD, 1, 19_900).meterValues).toBe(199);
  });

  it("offers issue 21's 20,000 charge points × 4 measurands every 60 s as 1,333 samples/s", () => {
    const plan = { ...FLOOD, chargingShare: 1, meterSeconds: 60 };
    expect(offeredRates(plan, 1).samples).toBe(1333.33);
  });

  it('finds the multiplier for a target rate', () => {
    expect(multiplierFor(FLOOD, 10_000)).toBe(17.65);
    expect(offeredRates(FLOOD, 17.65).messages).toBeCloseTo(10_000, -1);
  });

  it('spreads the first message over the interval', () => {
    expect(firstDelayMs(10_000, 0)).toBe(0);
    expect(firstDelayMs(10_000, 0.5)).toBe(5000);
    expect(firstDelayMs(10_000, 0.99999)).toBeLessThan(10_000);
  });

  it('gives per-second figures and CPU per message', () => {
    expect(perSecond(1234, 10)).toBe(123.4);
    expect(perSecond(5, 0)).toBe(0);
    expect(
      cpuMsPerMessage({ 'ocpp-gateway': { cpuSeconds: 3 }, machine: { cpuSeconds: 12 }, other: {} }, 10_000),
    ).toEqual({ 'ocpp-gateway': 0.3, machine: 1.2 });
    expect(cpuMsPerMessage({ 'ocpp-gateway': { cpuSeconds: 3 } }, 0)).toEqual({});
  });
});

describe('messages', () => {
  // The schemas the gateway validates against (ocpp-rpc's, in strict mode).
  const validators = createRequire(import.meta.url)('ocpp-rpc/lib/standard-validators.js') as {
    subprotocol: string;
    validate(schemaId: string, params: unknown): boolean;
  }[];
  const valid = (version: OcppVersion, [type, id, action, payload]: Call) => {
    expect([type, typeof id]).toEqual([2, 'string']);
    const validator = validators.find((candidate) => candidate.subprotocol === version)!;
    return validator.validate(`urn:${action}.req`, payload);
  };
  const at = new Date('2026-11-26T05:00:00.123Z');

  it.each(['ocpp1.6', 'ocpp2.0.1'] as const)('are valid %s', (version) => {
    expect(valid(version, bootNotification(version, '1', 'Telemetry'))).toBe(true);
    expect(valid(version, heartbeat('2'))).toBe(true);
    expect(valid(version, statusNotification(version, '3', at, { inUse: true }))).toBe(true);
    expect(valid(version, statusNotification(version, '4', at, { inUse: false, charging: true }))).toBe(true);
    expect(
      valid(
        version,
        transactionStart(version, '5', at, { idTag: 'BENCH-TELEMETRY', meterWh: 1000, transactionId: 'T-1' }),
      ),
    ).toBe(true);
    const meter = meterValues(version, '6', at, {
      transactionId: '17',
      seqNo: 3,
      energyWh: 1500,
      measurands: 8,
    });
    expect(valid(version, meter)).toBe(true);
  });

  it('carry the measurands asked for, sampled at the send time', () => {
    const [, , action16, payload16] = meterValues('ocpp1.6', '1', at, {
      transactionId: '17',
      seqNo: 1,
      energyWh: 1500,
      measurands: 4,
    });
    expect(action16).toBe('MeterValues');
    expect(payload16).toMatchObject({ connectorId: 1, transactionId: 17 });
    const [value16] = payload16.meterValue as {
      timestamp: string;
      sampledValue: { measurand: string; value: string }[];
    }[];
    expect(value16.timestamp).toBe('2026-11-26T05:00:00.123Z');
    expect(value16.sampledValue.map((sample) => sample.measurand)).toEqual([
      'Energy.Active.Import.Register',
      'Power.Active.Import',
      'Current.Import',
      'Voltage',
    ]);
    expect(value16.sampledValue[0].value).toBe('1500');

    const [, , action201, payload201] = meterValues('ocpp2.0.1', '2', at, {
      transactionId: 'TEL-1-1',
      seqNo: 5,
      energyWh: 1500,
      measurands: 2,
    });
    expect(action201).toBe('TransactionEvent');
    expect(payload201).toMatchObject({
      eventType: 'Updated',
      seqNo: 5,
      transactionInfo: { transactionId: 'TEL-1-1' },
    });
    expect((payload201.meterValue as { sampledValue: unknown[] }[])[0].sampledValue).toHaveLength(2);
  });

  it('change the status of the second connector, the charging one says so', () => {
    expect(statusNotification('ocpp1.6', '1', at, { inUse: true })[3]).toMatchObject({
      connectorId: 2,
      status: 'Preparing',
    });
    expect(statusNotification('ocpp2.0.1', '1', at, { inUse: false })[3]).toMatchObject({
      evseId: 2,
      connectorStatus: 'Available',
    });
    expect(statusNotification('ocpp1.6', '1', at, { inUse: true, charging: true })[3]).toMatchObject({
      connectorId: 1,
      status: 'Charging',
    });
  });
});

describe('LatencyHistogram', () => {
  it('reports percentiles within a bucket (4.5 %) above the true ones', () => {
    const histogram = new LatencyHistogram();
    for (let value = 1; value <= 100; value += 1) histogram.record(value);
    const summary = histogram.summary();
    expect(summary.count).toBe(100);
    for (const [percentile, exact] of [
      [summary.p50, 50],
      [summary.p95, 95],
      [summary.p99, 99],
      [summary.max, 100],
    ] as const) {
      expect(percentile).toBeGreaterThanOrEqual(exact);
      expect(percentile!).toBeLessThanOrEqual(exact * 1.045);
    }
  });

  it("adds up the children's histograms", () => {
    const [a, b] = [new LatencyHistogram(), new LatencyHistogram()];
    for (let i = 0; i < 98; i += 1) a.record(2);
    b.record(500);
    b.record(800);
    const merged = new LatencyHistogram();
    merged.add(a);
    merged.add(b.buckets);
    const summary = merged.summary();
    expect(summary.count).toBe(100);
    expect(summary.p95).toBeCloseTo(2, 0);
    expect(summary.p99).toBeGreaterThanOrEqual(500);
    expect(summary.p99).toBeLessThan(800);
    expect(summary.max).toBeGreaterThanOrEqual(800);
  });

  it('puts sub-10 µs round trips in the first bucket and reports nothing for none', () => {
    expect(LatencyHistogram.bucketOf(0)).toBe(0);
    expect(new LatencyHistogram().summary()).toEqual({
      count: 0,
      p50: null,
      p95: null,
      p99: null,
      max: null,
    });
  });
});

describe('receiptToStoredMs', () => {
  it('pairs each stored message with its receipt and counts the ones never seen', () => {
    const received = new Map([
      ['a', 1000],
      ['b', 1500],
    ]);
    expect(
      receiptToStoredMs(received, [
        { eventId: 'a', storedAt: 1040 },
        { eventId: 'b', storedAt: 3500 },
        { eventId: 'c', storedAt: 3600 },
      ]),
    ).toEqual({ lags: [40, 2000], unmatched: 1 });
  });
});
