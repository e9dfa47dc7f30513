import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { type MeterValuesEvent, TelemetryEventSubjects } from '@cpc/contracts';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { apiCall, natsLogin } from './bench-setup.js';
import { seedFleet } from './commands-phase.js';
import { FleetProcesses } from './fleet-processes.js';
import type { TelemetryKind, TelemetryStepReport } from './idle-fleet.js';
import { openFileLimit } from './idle-phase.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import type { ProcessUsageSampler, UsageSummary } from './process-usage.js';
import type { Progress } from './progress.js';
import {
  chargingCount,
  cpuMsPerMessage,
  LatencyHistogram,
  type OfferedRates,
  offeredRates,
  perSecond,
  receiptToStoredMs,
  type StepIntervals,
  stepIntervals,
  type TelemetryPlan,
} from './telemetry-schedule.js';

/** The id token the charging charge points start their transactions with (imported for the tenant first). */
const ID_TAG = 'BENCH-TELEMETRY';
/** A step's samples are waited for until all are stored, or until this long passes without one more stored. */
const STORE_WAIT_MS = 30_000;

export interface TelemetryOptions extends TelemetryPlan {
  connectsPerSecond: number;
  rateMultipliers: number[];
  seconds: number;
}

export interface TelemetryStepResult {
  multiplier: number;
  seconds: number;
  intervalsMs: StepIntervals;
  /** What the ready charge points offer at this multiplier, per second. */
  offeredPerSecond: OfferedRates;
  sent: Record<TelemetryKind, number>;
  answered: Record<TelemetryKind, number>;
  /** CALLERROR answers by code. */
  errors: Record<string, number>;
  /** Calls still unanswered 15 s after the step stopped sending. */
  unanswered: number;
  /** Messages the gateway acknowledged per second of the step: the figure "messages/s sustained". */
  acknowledgedPerSecond: number;
  /** Send → answer at the charge point, every message; and the meter values alone. */
  roundTripMs: LatencySummary;
  meterRoundTripMs: LatencySummary;
  samples: {
    /** Sampled values of the meter-value messages the gateway acknowledged. */
    acknowledged: number;
    /** Of those, found in control.meter_values. */
    stored: number;
    storedPerSecond: number;
    /** How long after the step the last of them took to be stored (0 when all were already). */
    waitedSeconds: number;
  };
  /** StatusNotifications acknowledged, and found in the controllers' event log (assets.controller_events). */
  statusChanges: { acknowledged: number; logged: number };
  /**
   * The gateway's receipt of a meter-value message (its event's `occurredAt`) → the storing transaction
   * (`received_at` of its rows), per message; `unmatched`: stored messages whose event the bench did not see.
   */
  receiptToStoredMs: (LatencySummary & { unmatched: number }) | { unavailable: string };
  /** The charge point's send (the sample's `sampled_at`) → the storing transaction, per sample. */
  sentToStoredMs: LatencySummary;
  usage: Record<string, UsageSummary>;
  /** CPU milliseconds per acknowledged message of each process, over the step and the wait for its samples. */
  cpuMsPerMessage: Record<string, number>;
}

export interface TelemetryResult {
  requested: number;
  attempted: number;
  cappedBy?: string;
  connected: number;
  ready: number;
  charging: number;
  failed: number;
  lastError?: string;
  setUpSeconds: number;
  plan: TelemetryPlan;
  steps: TelemetryStepResult[];
}

/** When the gateway received each meter-value message of the tenant, by event id (from the published events). */
class ReceiptWatch {
  readonly receivedAt = new Map<string, number>();
  failure: string | undefined;

  private constructor(private readonly close: () => Promise<void>) {}

  static async open(target: BenchTarget, tenant: BenchTenant): Promise<ReceiptWatch> {
    const login = natsLogin(target, 'bench');
    const nats = await connect({
      servers: target.natsUrl,
      name: 'bench telemetry',
      ...(login.NATS_USER ? { user: login.NATS_USER, pass: login.NATS_PASSWORD } : {}),
    });
    const watch = new ReceiptWatch(() => nats.close());
    nats.subscribe(TelemetryEventSubjects.meterValues, {
      callback: (error, message) => {
        if (error) {
          watch.failure = error.message;
          return;
        }
        const event = message.json<MeterValuesEvent>();
        if (event.tenantUuid === tenant.uuid)
          watch.receivedAt.set(event.eventId, Date.parse(event.occurredAt));
      },
    });
    await nats.flush();
    return watch;
  }

  async stop(): Promise<void> {
    await this.close();
  }
}

/**
 * A fleet reporting telemetry to one gateway: `chargePoints` plain `ws` charge points (idle-fleet.ts, half 1.6, half
 * 2.0.1) boot and report their connectors, `chargingShare` of them start a transaction; then, one step per rate
 * multiplier, each sends Heartbeat, StatusNotification changes and (charging) meter values with `measurands` sampled
 * values at its plan's intervals divided by the multiplier, for `seconds`. Each step reports the messages acknowledged
 * per second, their round trips, the samples stored in control.meter_values and their lag, and CPU per message.
 */
export async function runTelemetryPhase(
  target: BenchTarget,
  tenant: BenchTenant,
  gatewayPid: number,
  options: TelemetryOptions,
  sampler: ProcessUsageSampler,
  progress: Progress,
): Promise<TelemetryResult> {
  const limit = openFileLimit(gatewayPid) - 100;
  const attempted = Math.min(options.chargePoints, limit);
  progress.update(`telemetry: registering ${attempted} charge points`);
  await apiCall(target, tenant, 'POST', '/authorization/id-tokens:import', {
    id_tokens: [{ id_token: ID_TAG, type: 'iso14443' }],
  });
  const controllers = await seedFleet(target, tenant, attempted, 'TEL');
  const watch = await ReceiptWatch.open(target, tenant);
  const fleet = FleetProcesses.start(
    {
      ocppUrl: target.ocppUrl,
      tenant: tenant.slug,
      heartbeatSeconds: options.heartbeatSeconds,
      connectsPerSecond: options.connectsPerSecond,
      telemetry: { chargingShare: options.chargingShare, measurands: options.measurands, idTag: ID_TAG },
    },
    controllers.map((controller) => controller.ocpp_identity),
  );
  const database = new pg.Client({ connectionString: target.databaseUrl });
  await database.connect();
  try {
    const setUpStarted = performance.now();
    let lastChange = setUpStarted;
    let last = -1;
    for (;;) {
      await sleep(1000);
      const now = fleet.totals();
      progress.update(
        `telemetry: ${now.connected}/${attempted} connected, ${now.ready} ready, ${now.retries} retried, ` +
          `${now.failed} gave up`,
      );
      if (now.ready + now.failed !== last) [last, lastChange] = [now.ready + now.failed, performance.now()];
      if (last >= attempted || performance.now() - lastChange > 60_000) break;
    }
    const setUpSeconds = Math.round((performance.now() - setUpStarted) / 100) / 10;
    const ready = fleet.totals().ready;
    const steps: TelemetryStepResult[] = [];
    for (const multiplier of options.rateMultipliers) {
      steps.push(
        await runStep(multiplier, { options, tenant, fleet, watch, database, sampler, progress, ready }),
      );
    }
    const final = fleet.totals();
    return {
      requested: options.chargePoints,
      attempted,
      ...(attempted < options.chargePoints
        ? { cappedBy: `the gateway's open-file limit (${limit + 100})` }
        : {}),
      connected: final.connected,
      ready,
      charging: chargingCount(attempted, options.chargingShare),
      failed: final.failed,
      ...(fleet.lastError ? { lastError: fleet.lastError } : {}),
      setUpSeconds,
      plan: {
        chargePoints: options.chargePoints,
        chargingShare: options.chargingShare,
        heartbeatSeconds: options.heartbeatSeconds,
        meterSeconds: options.meterSeconds,
        measurands: options.measurands,
        statusSeconds: options.statusSeconds,
      },
      steps,
    };
  } finally {
    fleet.stop();
    await watch.stop();
    await database.end();
  }
}

interface StepContext {
  options: TelemetryOptions;
  tenant: BenchTenant;
  fleet: FleetProcesses;
  watch: ReceiptWatch;
  database: pg.Client;
  sampler: ProcessUsageSampler;
  progress: Progress;
  ready: number;
}

async function runStep(multiplier: number, context: StepContext): Promise<TelemetryStepResult> {
  const { options, fleet, sampler, progress } = context;
  const intervals = stepIntervals(options, multiplier);
  sampler.begin();
  const from = new Date();
  const started = performance.now();
  fleet.startStep(intervals);
  const ends = started + options.seconds * 1000;
  while (performance.now() < ends) {
    await sleep(Math.min(1000, ends - performance.now()));
    const now = fleet.totals();
    progress.update(
      `telemetry ×${multiplier}: ${now.stepSent} sent, ${now.stepAnswered} answered, ` +
        `${Math.ceil((ends - performance.now()) / 1000)} s left`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  progress.update(`telemetry ×${multiplier}: waiting for the last answers`);
  const reports = await fleet.endStep();
  const step = mergeReports(reports);
  // After every child stopped sending (a moment after the order): the step's samples are those sent until now.
  const to = new Date();

  const acknowledgedSamples = step.answered.meter * options.measurands;
  const waitStarted = performance.now();
  let [stored, logged] = [await storedSamples(context, from, to), await loggedStatuses(context, from, to)];
  let lastMoved = performance.now();
  while (
    (stored < acknowledgedSamples || logged < step.answered.status) &&
    performance.now() - lastMoved < STORE_WAIT_MS
  ) {
    progress.update(
      `telemetry ×${multiplier}: ${stored}/${acknowledgedSamples} samples stored, ` +
        `${logged}/${step.answered.status} status changes logged`,
    );
    await sleep(500);
    const now = [await storedSamples(context, from, to), await loggedStatuses(context, from, to)];
    if (now[0] > stored || now[1] > logged) [stored, logged, lastMoved] = [now[0], now[1], performance.now()];
  }
  const waitedSeconds = Math.round((performance.now() - waitStarted) / 100) / 10;
  const usage = sampler.summary();
  const acknowledged = step.answered.heartbeat + step.answered.status + step.answered.meter;
  return {
    multiplier,
    seconds: Math.round(seconds * 10) / 10,
    intervalsMs: intervals,
    offeredPerSecond: offeredRates(options, multiplier, context.ready),
    sent: step.sent,
    answered: step.answered,
    errors: step.errors,
    unanswered: step.unanswered,
    acknowledgedPerSecond: perSecond(acknowledged, seconds),
    roundTripMs: step.roundTrips.summary(),
    meterRoundTripMs: step.meterRoundTrips.summary(),
    samples: {
      acknowledged: acknowledgedSamples,
      stored,
      storedPerSecond: perSecond(stored, seconds),
      waitedSeconds: stored >= acknowledgedSamples ? waitedSeconds : Math.round(waitedSeconds),
    },
    statusChanges: { acknowledged: step.answered.status, logged },
    receiptToStoredMs: await receiptLag(context, from, to),
    sentToStoredMs: await sentToStoredLag(context, from, to),
    usage,
    cpuMsPerMessage: cpuMsPerMessage(usage, acknowledged),
  };
}

function mergeReports(reports: TelemetryStepReport[]) {
  const kinds = (): Record<TelemetryKind, number> => ({ heartbeat: 0, status: 0, meter: 0 });
  const merged = {
    sent: kinds(),
    answered: kinds(),
    errors: {} as Record<string, number>,
    unanswered: 0,
    roundTrips: new LatencyHistogram(),
    meterRoundTrips: new LatencyHistogram(),
  };
  for (const report of reports) {
    for (const kind of Object.keys(merged.sent) as TelemetryKind[]) {
      merged.sent[kind] += report.sent[kind];
      merged.answered[kind] += report.answered[kind];
    }
    for (const [code, count] of Object.entries(report.errors)) {
      merged.errors[code] = (merged.errors[code] ?? 0) + count;
    }
    merged.unanswered += report.unanswered;
    merged.roundTrips.add(report.roundTripMs);
    merged.meterRoundTrips.add(report.meterRoundTripMs);
  }
  return merged;
}

/** The step's samples: the tenant's, sampled (that is, sent) while the step ran. */
const STEP_SAMPLES = `FROM control.meter_values WHERE tenant_uuid = $1 AND sampled_at >= $2 AND sampled_at <= $3`;

async function storedSamples({ database, tenant }: StepContext, from: Date, to: Date): Promise<number> {
  const { rows } = await database.query<{ count: number }>(
    `SELECT count(*)::integer AS count ${STEP_SAMPLES}`,
    [tenant.uuid, from, to],
  );
  return rows[0].count;
}

/** The step's status changes in the controllers' event log, by the gateway's receipt (the event's `occurredAt`). */
async function loggedStatuses({ database, tenant }: StepContext, from: Date, to: Date): Promise<number> {
  const { rows } = await database.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM assets.controller_events
      WHERE tenant_uuid = $1 AND kind = 'status_changed' AND occurred_at >= $2 AND occurred_at <= $3`,
    [tenant.uuid, from, to],
  );
  return rows[0].count;
}

async function sentToStoredLag(
  { database, tenant }: StepContext,
  from: Date,
  to: Date,
): Promise<LatencySummary> {
  const { rows } = await database.query<Record<'count' | 'p50' | 'p95' | 'p99' | 'max', number | null>>(
    `SELECT count(*)::integer AS count,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY lag) AS p50,
            percentile_disc(0.95) WITHIN GROUP (ORDER BY lag) AS p95,
            percentile_disc(0.99) WITHIN GROUP (ORDER BY lag) AS p99,
            max(lag) AS max
       FROM (SELECT extract(epoch FROM received_at - sampled_at)::float8 * 1000 AS lag ${STEP_SAMPLES}) AS samples`,
    [tenant.uuid, from, to],
  );
  const round = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);
  const { count, p50, p95, p99, max } = rows[0];
  return { count: count ?? 0, p50: round(p50), p95: round(p95), p99: round(p99), max: round(max) };
}

async function receiptLag(
  context: StepContext,
  from: Date,
  to: Date,
): Promise<TelemetryStepResult['receiptToStoredMs']> {
  if (context.watch.failure)
    return { unavailable: `the bench's subscription failed: ${context.watch.failure}` };
  const { rows } = await context.database.query<{ event_id: string; stored_at: number }>(
    `SELECT event_id, extract(epoch FROM min(received_at))::float8 * 1000 AS stored_at ${STEP_SAMPLES}
      GROUP BY event_id`,
    [context.tenant.uuid, from, to],
  );
  const { lags, unmatched } = receiptToStoredMs(
    context.watch.receivedAt,
    rows.map((row) => ({ eventId: row.event_id, storedAt: row.stored_at })),
  );
  const recorder = new LatencyRecorder();
  for (const lag of lags) recorder.record(lag);
  return { ...recorder.summary(), unmatched };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
