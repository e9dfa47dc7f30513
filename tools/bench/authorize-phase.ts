import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AuthorizeLoadMessage, AuthorizeLoadOrder, AuthorizeLoadReport } from './authorize-load.js';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { apiCall } from './bench-setup.js';
import { seedFleet } from './commands-phase.js';
import type { LatencySummary } from './latency-recorder.js';
import type { Progress } from './progress.js';
import { readEventLoopLag, type ServiceLoopDelay } from './service-loop-delay.js';
import { LatencyHistogram } from './telemetry-schedule.js';

/** Tokens one import carries (the API's limit). */
const IMPORT_SIZE = 10_000;
/** Calls sent before the measured seconds: the first answers load the tenant's tokens into the gateway's cache. */
const WARM_UP_MS = 1000;

export interface AuthorizeOptions {
  chargePoints: number;
  tokens: number;
  rate: number;
  seconds: number;
  /** Child processes the charge points and the rate are divided over. */
  processes: number;
}

export interface AuthorizeResult {
  chargePoints: number;
  tokens: number;
  targetPerSecond: number;
  loadProcesses: number;
  sent: number;
  answered: number;
  failed: number;
  /** Not sent because two seconds' worth of calls were still unanswered. */
  skipped: number;
  answeredPerSecond: number;
  byStatus: Record<string, number>;
  /** Merged from the load processes' histograms: each percentile is within 4.5 % above the true one. */
  roundTripMs: LatencySummary;
  /** Each load process's event-loop delay and CPU during the measured seconds: a pause of the client, not the server. */
  loadProcessLoopDelayMs: LatencySummary[];
  loadProcessCpuMs: number[];
  /** Each service's event-loop delay over the measured seconds (prom-client's figures, 10 ms sampling included). */
  serviceLoopDelayMs: Record<string, ServiceLoopDelay>;
}

/**
 * Authorize round trips on one gateway: `tokens` id tokens imported for the tenant, `chargePoints` real OCPP-J
 * charge points (half 1.6, half 2.0.1, security profile 0) sending Authorize at `rate` per second in all, each call
 * timed from send to answer. The charge points and the rate are divided over `processes` child processes
 * (authorize-load.ts), so the load generator's own pauses neither delay the calls of the others nor go unseen: each
 * reports its event-loop delay beside the services'. The first calls load the tenant's tokens into the gateway's
 * cache; the figures are the steady state after it (a warm-up second is not counted).
 */
export async function runAuthorizePhase(
  target: BenchTarget,
  tenant: BenchTenant,
  options: AuthorizeOptions,
  progress: Progress,
): Promise<AuthorizeResult> {
  progress.update(`authorize: importing ${options.tokens} id tokens`);
  for (let first = 0; first < options.tokens; first += IMPORT_SIZE) {
    const count = Math.min(IMPORT_SIZE, options.tokens - first);
    await apiCall(target, tenant, 'POST', '/authorization/id-tokens:import', {
      id_tokens: Array.from({ length: count }, (_, index) => ({
        id_token: `A${first + index}`,
        type: 'iso14443',
      })),
    });
  }
  progress.update(`authorize: connecting ${options.chargePoints} charge points`);
  const controllers = await seedFleet(target, tenant, options.chargePoints, 'AUTH');
  const processes = Math.max(1, Math.min(options.processes, controllers.length));
  const entry = fileURLToPath(new URL('./authorize-load.js', import.meta.url));
  const children: ChildProcess[] = [];
  try {
    const orders: AuthorizeLoadOrder[] = Array.from({ length: processes }, (_, child) => ({
      endpoint: `${target.ocppUrl}/ocpp/${tenant.slug}`,
      chargePoints: controllers
        .map((controller, index) => ({ identity: controller.ocpp_identity, v16: index % 2 === 0 }))
        .filter((_, index) => index % processes === child),
      tokens: options.tokens,
      rate: options.rate / processes,
      seconds: options.seconds,
      warmUpMs: WARM_UP_MS,
    }));
    const replies = orders.map((order) => {
      const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      children.push(child);
      const next = () =>
        new Promise<AuthorizeLoadMessage>((resolve, reject) => {
          child.once('message', resolve);
          child.once('exit', (code) => reject(new Error(`an authorize load process exited (${code})`)));
        });
      const connected = next();
      child.send({ order });
      return { child, connected, next };
    });
    for (const reply of replies) {
      const message = await reply.connected;
      if ('error' in message) throw new Error(`authorize load process: ${message.error}`);
    }
    progress.update(`authorize @${options.rate}/s for ${options.seconds} s`);
    const reports = replies.map(async ({ child, next }) => {
      const done = next();
      child.send({ go: true });
      const message = await done;
      if ('error' in message) throw new Error(`authorize load process: ${message.error}`);
      if (!('report' in message)) throw new Error('authorize load process: no report');
      return message.report;
    });
    // prom-client resets its event-loop histogram at every scrape: the scrape at warm-up's end starts the window.
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
    await readEventLoopLag(target.serviceMetricsUrls ?? {});
    const finished = await Promise.all(reports);
    const serviceLoopDelayMs = await readEventLoopLag(target.serviceMetricsUrls ?? {});
    return merge(options, controllers.length, finished, serviceLoopDelayMs);
  } finally {
    for (const child of children) child.kill();
  }
}

function merge(
  options: AuthorizeOptions,
  chargePoints: number,
  reports: AuthorizeLoadReport[],
  serviceLoopDelayMs: Record<string, ServiceLoopDelay>,
): AuthorizeResult {
  const sum = (key: 'sent' | 'answered' | 'failed' | 'skipped') =>
    reports.reduce((total, report) => total + report[key], 0);
  const roundTrips = new LatencyHistogram();
  const byStatus: Record<string, number> = {};
  for (const report of reports) {
    roundTrips.add(report.roundTrips);
    for (const [status, count] of Object.entries(report.byStatus))
      byStatus[status] = (byStatus[status] ?? 0) + count;
  }
  return {
    chargePoints,
    tokens: options.tokens,
    targetPerSecond: options.rate,
    loadProcesses: reports.length,
    sent: sum('sent'),
    answered: sum('answered'),
    failed: sum('failed'),
    skipped: sum('skipped'),
    answeredPerSecond: Math.round(sum('answered') / options.seconds),
    byStatus,
    roundTripMs: roundTrips.summary(),
    loadProcessLoopDelayMs: reports.map((report) => report.loopDelayMs),
    loadProcessCpuMs: reports.map((report) => report.cpuMs),
    serviceLoopDelayMs,
  };
}
