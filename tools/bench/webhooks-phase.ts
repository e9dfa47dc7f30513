import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { CommandSubjects, type CommandStatusChangedEvent } from '@cpc/contracts';
import { apiCall, type BenchTarget, type BenchTenant, natsLogin } from './bench-setup.js';
import { CommandsBench } from './commands-phase.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import type { Progress } from './progress.js';
import type { ReceiverCommand, ReceiverMessage, ReceiverReport } from './webhook-receiver.js';

export interface WebhooksPhaseOptions {
  chargePoints: number;
  /** Commands created per second; each remote start takes three statuses (pending, sent, accepted). */
  commandRate: number;
  seconds: number;
  /** The first seconds, whose events eventToReceiverMsAfterWarmUp leaves out (all other figures count them). */
  warmUpSeconds: number;
  /** Whether the second subscription, whose receiver never answers, is there (off: to compare without it). */
  timingOutReceiver: boolean;
}

export interface WebhooksPhaseResult {
  commandRate: number;
  seconds: number;
  /** Command status events published while the phase ran, and per second of the sending window. */
  statusEvents: number;
  statusEventsPerSecond: number;
  /** Distinct events the healthy receiver got (its first copy of each). */
  delivered: number;
  /** Status events the healthy receiver never got (after deliveries stopped moving for the drain time). */
  lost: number;
  /** Copies past the first of a webhook-id, and events that came with two different webhook-ids. */
  repeated: number;
  differentIds: number;
  /** Healthy deliveries per second, from the first to the last one. */
  deliveriesPerSecond: number;
  /** Event (`timestamp` in the body: when command-service changed the status) → the healthy receiver has it. */
  eventToReceiverMs: LatencySummary;
  warmUpSeconds: number;
  /**
   * The same for the events after the first warmUpSeconds: the steady state, without the start, where every service's
   * code is cold and the whole load arrives at once.
   */
  eventToReceiverMsAfterWarmUp: LatencySummary;
  /** The same by the status the event announced (a command's later statuses wait for its earlier ones' deliveries). */
  eventToReceiverMsByStatus: Record<string, LatencySummary>;
  /** The same per second of the events' times, from the first event: where a lag builds and whether it is worked off. */
  eventToReceiverMsBySecond: LatencySummary[];
  /**
   * Event → seen on NATS by the bench: the part of eventToReceiverMs spent before webhook-service could have it
   * (command-service's outbox relay publishing it).
   */
  eventToNatsMs: LatencySummary;
  /** The same per second of the events' times. */
  eventToNatsMsBySecond: LatencySummary[];
  /** Requests to the receiver that never answers (each times out; retried with backoff); null without it. */
  timedOutReceiverRequests: number | null;
}

/** Stop waiting for the last deliveries after this long without a new one. */
const DRAIN_QUIET_MS = 15_000;

/** A receiver (webhook-receiver.ts) in a child process: its URL, its count so far, and its report. */
class ReceiverProcess {
  /** Distinct events received so far (a healthy receiver), or requests (one that never answers). */
  received = 0;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(answer: boolean): Promise<ReceiverProcess> {
    const entry = fileURLToPath(new URL('./webhook-receiver.js', import.meta.url));
    const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the webhook receiver exited (${String(code)})`)));
      child.on('message', (message: ReceiverMessage) => {
        if ('listening' in message) resolve(message.listening);
      });
      child.send({ start: { answer } } satisfies ReceiverCommand);
    });
    const receiver = new ReceiverProcess(child, url);
    child.on('message', (message: ReceiverMessage) => {
      if ('received' in message) receiver.received = message.received;
    });
    return receiver;
  }

  report(): Promise<ReceiverReport> {
    return new Promise((resolve) => {
      const answered = (message: ReceiverMessage) => {
        if (!('report' in message)) return;
        this.child.off('message', answered);
        resolve(message.report);
      };
      this.child.on('message', answered);
      this.child.send({ report: true } satisfies ReceiverCommand);
    });
  }

  close(): void {
    this.child.kill();
  }
}

/**
 * Webhook deliveries under command traffic: two subscriptions to `command.status_changed`, one with a healthy
 * receiver and one whose receiver never answers; commands at `commandRate` through real charge points (the commands
 * phase's), every status change counted on NATS. Measures the healthy receiver's deliveries per second, its p99 from
 * the status change to the receiver, and what was lost or repeated.
 */
export async function runWebhooksPhase(
  target: BenchTarget,
  tenant: BenchTenant,
  options: WebhooksPhaseOptions,
  progress: Progress,
): Promise<WebhooksPhaseResult> {
  const healthy = await ReceiverProcess.start(true);
  const stuck = options.timingOutReceiver ? await ReceiverProcess.start(false) : undefined;
  const subscribe = (url: string) =>
    apiCall(target, tenant, 'POST', '/webhooks', { url, event_types: ['command.status_changed'] });
  await subscribe(healthy.url);
  if (stuck) await subscribe(stuck.url);

  const login = natsLogin(target, 'bench');
  const nats = await connect({
    servers: target.natsUrl,
    name: 'bench-webhooks',
    ...(login.NATS_USER ? { user: login.NATS_USER, pass: login.NATS_PASSWORD } : {}),
  });
  const events = new Set<string>();
  const natsLatency = new LatencyRecorder();
  const natsLatencyBySecond: LatencyRecorder[] = [];
  let firstOccurredAt: number | undefined;
  const subscription = nats.subscribe(CommandSubjects.statusChanged, {
    callback: (_error, message) => {
      const event = message.json<CommandStatusChangedEvent>();
      const { command } = event.data;
      const occurredAt = Date.parse(event.occurredAt);
      const lagMs = Date.now() - occurredAt;
      firstOccurredAt ??= occurredAt;
      natsLatency.record(lagMs);
      const second = Math.max(0, Math.floor((occurredAt - firstOccurredAt) / 1000));
      (natsLatencyBySecond[second] ??= new LatencyRecorder()).record(lagMs);
      events.add(`${command.command_uuid}/${command.status}`);
    },
  });
  await nats.flush();

  progress.update(`webhooks: connecting ${options.chargePoints} charge points`);
  const bench = await CommandsBench.start(target, tenant, options.chargePoints, 'HOOK');
  try {
    const sendStart = Date.now();
    await bench.step(options.commandRate, options.seconds, progress);
    const sendSeconds = (Date.now() - sendStart) / 1000;
    let lastCount = -1;
    let movedAt = Date.now();
    while (healthy.received < events.size && Date.now() - movedAt < DRAIN_QUIET_MS) {
      progress.update(`webhooks: ${healthy.received}/${events.size} delivered`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (healthy.received !== lastCount) [lastCount, movedAt] = [healthy.received, Date.now()];
    }
    const statusEvents = events.size;
    const [got, timedOut] = [await healthy.report(), await stuck?.report()];
    const received = new Set(got.events);
    const latency = new LatencyRecorder();
    const afterWarmUp = new LatencyRecorder();
    const byStatus = new Map<string, LatencyRecorder>();
    const bySecond: LatencyRecorder[] = [];
    const firstEventAt = Math.min(...got.eventAtMs);
    got.latenciesMs.forEach((ms, index) => {
      latency.record(ms);
      const status = got.statuses[index];
      if (!byStatus.has(status)) byStatus.set(status, new LatencyRecorder());
      byStatus.get(status)?.record(ms);
      const second = Math.floor((got.eventAtMs[index] - firstEventAt) / 1000);
      if (second >= options.warmUpSeconds) afterWarmUp.record(ms);
      (bySecond[second] ??= new LatencyRecorder()).record(ms);
    });
    return {
      commandRate: options.commandRate,
      seconds: options.seconds,
      statusEvents,
      statusEventsPerSecond: Math.round(statusEvents / sendSeconds),
      delivered: received.size,
      lost: [...events].filter((key) => !received.has(key)).length,
      repeated: got.repeated,
      differentIds: got.differentIds,
      deliveriesPerSecond:
        got.lastAt > got.firstAt ? Math.round(received.size / ((got.lastAt - got.firstAt) / 1000)) : 0,
      eventToReceiverMs: latency.summary(),
      warmUpSeconds: options.warmUpSeconds,
      eventToReceiverMsAfterWarmUp: afterWarmUp.summary(),
      eventToReceiverMsByStatus: Object.fromEntries(
        [...byStatus].map(([status, recorder]) => [status, recorder.summary()]),
      ),
      eventToReceiverMsBySecond: Array.from(bySecond, (recorder) =>
        (recorder ?? new LatencyRecorder()).summary(),
      ),
      eventToNatsMs: natsLatency.summary(),
      eventToNatsMsBySecond: Array.from(natsLatencyBySecond, (recorder) =>
        (recorder ?? new LatencyRecorder()).summary(),
      ),
      timedOutReceiverRequests: timedOut?.requests ?? null,
    };
  } finally {
    subscription.unsubscribe();
    await nats.close();
    await bench.stop();
    healthy.close();
    stuck?.close();
  }
}
