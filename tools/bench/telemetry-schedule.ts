/**
 * The pure parts of the telemetry phase: who charges, how often each charge point sends what at a rate multiplier,
 * what that offers the gateway per second, the OCPP messages themselves, and a latency histogram the fleet's child
 * processes can merge.
 */

export type OcppVersion = 'ocpp1.6' | 'ocpp2.0.1';

/** The fleet's behaviour at rate multiplier 1; a step at multiplier m divides every interval by m. */
export interface TelemetryPlan {
  chargePoints: number;
  /** Share of the charge points in a transaction, sending meter values (0 to 1). */
  chargingShare: number;
  heartbeatSeconds: number;
  /** MeterValues (1.6) or TransactionEvent Updated (2.0.1) interval of a charging charge point. */
  meterSeconds: number;
  /** Sampled values per meter-value message (the measurands of MEASURANDS, in order). */
  measurands: number;
  /** Interval of each charge point's StatusNotification changes (its second connector, Available ↔ in use). */
  statusSeconds: number;
}

/** The intervals of one step, milliseconds. */
export interface StepIntervals {
  heartbeatMs: number;
  meterMs: number;
  statusMs: number;
}

/** What a fleet offers per second at a multiplier, by kind, in all, and the sampled values it carries. */
export interface OfferedRates {
  heartbeats: number;
  meterValues: number;
  statusNotifications: number;
  messages: number;
  samples: number;
}

/** Measurands both versions define, with a unit both accept; a message carries the first `measurands` of them. */
export const MEASURANDS = [
  { measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
  { measurand: 'Power.Active.Import', unit: 'W' },
  { measurand: 'Current.Import', unit: 'A' },
  { measurand: 'Voltage', unit: 'V' },
  { measurand: 'SoC', unit: 'Percent' },
  { measurand: 'Energy.Active.Export.Register', unit: 'Wh' },
  { measurand: 'Current.Offered', unit: 'A' },
  { measurand: 'Power.Offered', unit: 'W' },
] as const;

/** Even indexes speak 1.6, odd ones 2.0.1 (as in the other phases). */
export function versionOf(index: number): OcppVersion {
  return index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1';
}

/**
 * Whether the charge point at `index` charges: pairs of neighbours (one 1.6, one 2.0.1) are picked evenly spread, so
 * both versions charge in the same share and `round(count × share / 2) × 2` of any whole fleet charge.
 */
export function isCharging(index: number, share: number): boolean {
  const pair = Math.floor(index / 2);
  return Math.floor((pair + 1) * share) > Math.floor(pair * share);
}

export function chargingCount(count: number, share: number): number {
  let charging = 0;
  for (let index = 0; index < count; index += 1) if (isCharging(index, share)) charging += 1;
  return charging;
}

export function stepIntervals(plan: TelemetryPlan, multiplier: number): StepIntervals {
  return {
    heartbeatMs: (plan.heartbeatSeconds * 1000) / multiplier,
    meterMs: (plan.meterSeconds * 1000) / multiplier,
    statusMs: (plan.statusSeconds * 1000) / multiplier,
  };
}

/** The steady rates a fleet of `connected` charge points (of which `charging` charge) offers at a multiplier. */
export function offeredRates(
  plan: TelemetryPlan,
  multiplier: number,
  connected = plan.chargePoints,
  charging = chargingCount(connected, plan.chargingShare),
): OfferedRates {
  const intervals = stepIntervals(plan, multiplier);
  const heartbeats = (connected * 1000) / intervals.heartbeatMs;
  const meterValues = (charging * 1000) / intervals.meterMs;
  const statusNotifications = (connected * 1000) / intervals.statusMs;
  return {
    heartbeats: round(heartbeats),
    meterValues: round(meterValues),
    statusNotifications: round(statusNotifications),
    messages: round(heartbeats + meterValues + statusNotifications),
    samples: round(meterValues * plan.measurands),
  };
}

/** The multiplier at which the fleet offers `messagesPerSecond` (e.g. 10,000/s through one gateway). */
export function multiplierFor(
  plan: TelemetryPlan,
  messagesPerSecond: number,
  connected = plan.chargePoints,
): number {
  return round(messagesPerSecond / offeredRates(plan, 1, connected).messages);
}

/**
 * When a periodic message first goes out after a step begins: anywhere within its interval, so a fleet's messages
 * are spread evenly over time from the first second (`random` in [0, 1)).
 */
export function firstDelayMs(intervalMs: number, random: number): number {
  return Math.floor(random * intervalMs);
}

/** An OCPP-J CALL frame. */
export type Call = [2, string, string, Record<string, unknown>];

/** The connector that charges (1.6 connector 1; 2.0.1 EVSE 1, connector 1) and the one whose status changes. */
const CHARGING_CONNECTOR = 1;
const STATUS_CONNECTOR = 2;

/** BootNotification of a bench charge point whose model is `model` and the version (`Idle 16`, `Telemetry 201`). */
export function bootNotification(version: OcppVersion, id: string, model: string): Call {
  return version === 'ocpp1.6'
    ? [2, id, 'BootNotification', { chargePointVendor: 'Bench', chargePointModel: `${model} 16` }]
    : [
        2,
        id,
        'BootNotification',
        { chargingStation: { vendorName: 'Bench', model: `${model} 201` }, reason: 'PowerUp' },
      ];
}

export function heartbeat(id: string): Call {
  return [2, id, 'Heartbeat', {}];
}

/**
 * A StatusNotification of the connector that changes (`inUse` false: Available; true: Preparing on 1.6, Occupied on
 * 2.0.1), or of the charging connector (`charging`: Charging / Occupied).
 */
export function statusNotification(
  version: OcppVersion,
  id: string,
  at: Date,
  state: { inUse: boolean; charging?: boolean },
): Call {
  const connector = state.charging ? CHARGING_CONNECTOR : STATUS_CONNECTOR;
  if (version === 'ocpp1.6') {
    const status = state.charging ? 'Charging' : state.inUse ? 'Preparing' : 'Available';
    return [
      2,
      id,
      'StatusNotification',
      { connectorId: connector, errorCode: 'NoError', status, timestamp: at.toISOString() },
    ];
  }
  return [
    2,
    id,
    'StatusNotification',
    {
      timestamp: at.toISOString(),
      connectorStatus: state.charging || state.inUse ? 'Occupied' : 'Available',
      evseId: connector,
      connectorId: 1,
    },
  ];
}

/** 1.6 StartTransaction, or 2.0.1 TransactionEvent Started with the charge point's own transaction id. */
export function transactionStart(
  version: OcppVersion,
  id: string,
  at: Date,
  transaction: { idTag: string; meterWh: number; transactionId: string },
): Call {
  if (version === 'ocpp1.6') {
    return [
      2,
      id,
      'StartTransaction',
      {
        connectorId: CHARGING_CONNECTOR,
        idTag: transaction.idTag,
        meterStart: transaction.meterWh,
        timestamp: at.toISOString(),
      },
    ];
  }
  return [
    2,
    id,
    'TransactionEvent',
    {
      eventType: 'Started',
      timestamp: at.toISOString(),
      triggerReason: 'Authorized',
      seqNo: 0,
      transactionInfo: { transactionId: transaction.transactionId, chargingState: 'Charging' },
      evse: { id: CHARGING_CONNECTOR, connectorId: 1 },
      idToken: { idToken: transaction.idTag, type: 'ISO14443' },
    },
  ];
}

/** The first `measurands` sampled values, all taken at `at` (which the bench uses as the send time). */
function sampledValues(version: OcppVersion, measurands: number, energyWh: number) {
  return MEASURANDS.slice(0, measurands).map(({ measurand, unit }) => {
    const value = measurand === 'Energy.Active.Import.Register' ? energyWh : sampleValue(measurand);
    return version === 'ocpp1.6'
      ? { value: String(value), measurand, unit, context: 'Sample.Periodic' }
      : { value, measurand, unitOfMeasure: { unit }, context: 'Sample.Periodic' };
  });
}

function sampleValue(measurand: string): number {
  switch (measurand) {
    case 'Power.Active.Import':
    case 'Power.Offered':
      return 11000;
    case 'Voltage':
      return 230;
    case 'SoC':
      return 50;
    case 'Energy.Active.Export.Register':
      return 0;
    default:
      return 16;
  }
}

/**
 * The periodic meter values of a transaction: 1.6 MeterValues with its transaction id, 2.0.1 TransactionEvent Updated
 * (`seqNo` counts the transaction's messages). The sample time is `at`, the moment the message is sent.
 */
export function meterValues(
  version: OcppVersion,
  id: string,
  at: Date,
  transaction: { transactionId: string; seqNo: number; energyWh: number; measurands: number },
): Call {
  const meterValue = [
    {
      timestamp: at.toISOString(),
      sampledValue: sampledValues(version, transaction.measurands, transaction.energyWh),
    },
  ];
  if (version === 'ocpp1.6') {
    return [
      2,
      id,
      'MeterValues',
      { connectorId: CHARGING_CONNECTOR, transactionId: Number(transaction.transactionId), meterValue },
    ];
  }
  return [
    2,
    id,
    'TransactionEvent',
    {
      eventType: 'Updated',
      timestamp: at.toISOString(),
      triggerReason: 'MeterValuePeriodic',
      seqNo: transaction.seqNo,
      transactionInfo: { transactionId: transaction.transactionId },
      meterValue,
    },
  ];
}

/**
 * Round trips in milliseconds, counted in buckets 2^(1/16) apart (under 4.5 % wide) from 10 µs up: child processes
 * each keep one and the parent adds them up, which percentiles of their own could not be.
 */
export class LatencyHistogram {
  static readonly STEPS_PER_DOUBLING = 16;
  static readonly SMALLEST_MS = 0.01;

  constructor(readonly buckets: Record<number, number> = {}) {}

  static bucketOf(milliseconds: number): number {
    if (milliseconds <= LatencyHistogram.SMALLEST_MS) return 0;
    return Math.ceil(
      Math.log2(milliseconds / LatencyHistogram.SMALLEST_MS) * LatencyHistogram.STEPS_PER_DOUBLING - 1e-9,
    );
  }

  /** The largest value of a bucket: what a percentile falling in it reports (at most 4.5 % above the true one). */
  static upperBoundOf(bucket: number): number {
    return LatencyHistogram.SMALLEST_MS * 2 ** (bucket / LatencyHistogram.STEPS_PER_DOUBLING);
  }

  record(milliseconds: number): void {
    const bucket = LatencyHistogram.bucketOf(milliseconds);
    this.buckets[bucket] = (this.buckets[bucket] ?? 0) + 1;
  }

  add(other: LatencyHistogram | Record<number, number>): void {
    const buckets = other instanceof LatencyHistogram ? other.buckets : other;
    for (const [bucket, count] of Object.entries(buckets)) {
      this.buckets[Number(bucket)] = (this.buckets[Number(bucket)] ?? 0) + count;
    }
  }

  get count(): number {
    return Object.values(this.buckets).reduce((sum, count) => sum + count, 0);
  }

  /** Nearest-rank percentiles (as LatencyRecorder's), each the upper bound of its bucket. */
  summary(): {
    count: number;
    p50: number | null;
    p95: number | null;
    p99: number | null;
    max: number | null;
  } {
    const count = this.count;
    const sorted = Object.entries(this.buckets)
      .map(([bucket, n]) => [Number(bucket), n] as const)
      .sort(([a], [b]) => a - b);
    const at = (fraction: number) => {
      if (count === 0) return null;
      const rank = Math.max(1, Math.ceil(fraction * count));
      let seen = 0;
      for (const [bucket, n] of sorted) {
        seen += n;
        if (seen >= rank) return round(LatencyHistogram.upperBoundOf(bucket));
      }
      return null;
    };
    return { count, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
  }
}

/** Per second over `seconds`, one decimal. */
export function perSecond(count: number, seconds: number): number {
  return seconds <= 0 ? 0 : Math.round((count / seconds) * 10) / 10;
}

/**
 * Lag from the gateway's receipt of each meter-value message (its event's `occurredAt`) to its storage (the row's
 * `received_at`), in milliseconds, for the events both sides know; the ones stored but never seen published (the
 * bench's subscription missed them) are left out and counted.
 */
export function receiptToStoredMs(
  receivedAt: ReadonlyMap<string, number>,
  storedAt: readonly { eventId: string; storedAt: number }[],
): { lags: number[]; unmatched: number } {
  const lags: number[] = [];
  let unmatched = 0;
  for (const { eventId, storedAt: stored } of storedAt) {
    const received = receivedAt.get(eventId);
    if (received === undefined) unmatched += 1;
    else lags.push(stored - received);
  }
  return { lags, unmatched };
}

/** CPU milliseconds per message of each process, from its CPU seconds over a step. */
export function cpuMsPerMessage(
  usage: Record<string, { cpuSeconds?: number }>,
  messages: number,
): Record<string, number> {
  if (messages === 0) return {};
  return Object.fromEntries(
    Object.entries(usage)
      .filter(([, figures]) => figures.cpuSeconds !== undefined)
      .map(([name, figures]) => [name, Math.round((figures.cpuSeconds! / messages) * 1e6) / 1000]),
  );
}

const round = (value: number) => Math.round(value * 100) / 100;
