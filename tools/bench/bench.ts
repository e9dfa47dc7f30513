import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { natsPasswordVariable } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { PLATFORM_SERVICES } from '@cpc/platform-launcher';
import { parseBenchOptions, USAGE, type BenchOptions, type Phase } from './bench-options.js';
import { startBenchPlatform } from './bench-platform.js';
import { apiCall, type BenchTarget, type BenchTenant, createBenchTenant } from './bench-setup.js';
import { repositoryRoot } from './bench-platform.js';
import { runAuthorizePhase } from './authorize-phase.js';
import { CommandsBench } from './commands-phase.js';
import { seedCommands } from './commands-seed.js';
import { httpLoad } from './http-load.js';
import { runIdlePhase } from './idle-phase.js';
import { type ListDepthResult, measureListDepth } from './list-depth.js';
import { commandLatencySvg, machineSubtitle, plotPathFor, type PlottedStep } from './latency-plot.js';
import {
  findPidsByCommandLine,
  findServicePids,
  ProcessGroupCpu,
  ProcessUsageSampler,
  type UsageSummary,
} from './process-usage.js';
import { Progress } from './progress.js';
import { runWebhooksPhase } from './webhooks-phase.js';
import { runTelemetryPhase, type TelemetryResult } from './telemetry-phase.js';
import { runReconnectStormPhase, type StormResult } from './storm-phase.js';
import { type ExportedTraces, OtlpSink, tracingEnvironment } from './otlp-sink.js';

/** Longer than the batch span processor's default export delay (5 s), so a phase's spans are counted with it. */
const TRACE_EXPORT_WAIT_MS = 6000;

interface PhaseReport {
  phase: Phase;
  result: unknown;
  usage: Record<string, UsageSummary>;
  cpuMsPerCommand?: Record<string, number>;
  /** A traced run (--trace-sampling): its ratio and what the services exported so far. */
  traceSampling?: number;
  tracesExported?: ExportedTraces;
}

async function runPhase(
  phase: Phase,
  options: BenchOptions,
  target: BenchTarget,
  tenant: BenchTenant,
  pids: Map<string, number>,
  progress: Progress,
  sampler: ProcessUsageSampler,
): Promise<unknown> {
  const token = tenant.token;
  switch (phase) {
    case 'idle': {
      const gatewayPid = pids.get('ocpp-gateway');
      if (gatewayPid === undefined) throw new Error('no ocpp-gateway process found on this machine');
      return runIdlePhase(
        target,
        tenant,
        gatewayPid,
        {
          count: options.idleCount,
          heartbeatSeconds: options.heartbeatSeconds,
          connectsPerSecond: options.connectsPerSecond,
          holdSeconds: options.idleHoldSeconds,
        },
        progress,
      );
    }
    case 'telemetry': {
      const gatewayPid = pids.get('ocpp-gateway');
      if (gatewayPid === undefined) throw new Error('no ocpp-gateway process found on this machine');
      return runTelemetryPhase(
        target,
        tenant,
        gatewayPid,
        {
          chargePoints: options.telemetryChargePoints,
          chargingShare: options.telemetryChargingShare,
          heartbeatSeconds: options.telemetryHeartbeatSeconds,
          meterSeconds: options.telemetryMeterSeconds,
          measurands: options.telemetryMeasurands,
          statusSeconds: options.telemetryStatusSeconds,
          rateMultipliers: options.telemetryRateMultipliers,
          seconds: options.telemetrySeconds,
          connectsPerSecond: options.connectsPerSecond,
        },
        sampler,
        progress,
      );
    }
    case 'reconnect-storm':
      return runReconnectStormPhase(
        target,
        tenant,
        pids,
        {
          chargePoints: options.stormChargePoints,
          connectors: options.stormConnectors,
          retrySeconds: options.stormRetrySeconds,
          commandChargePoints: options.stormCommandChargePoints,
          commandsEach: options.stormCommandsEach,
          timeoutSeconds: options.stormTimeoutSeconds,
          connectsPerSecond: options.connectsPerSecond,
        },
        sampler,
        progress,
      );
    case 'location': {
      const { location } = await apiCall<{ location: { uuid: string } }>(
        target,
        tenant,
        'POST',
        '/assets/locations',
        {
          name: 'Bench location',
          city: 'Hamburg',
          latitude: '53.5436',
          longitude: '9.9883',
        },
      );
      return httpLoad(
        'GET location',
        {
          baseUrl: target.apiUrl,
          token,
          paths: [`/api/v1/assets/locations/${location.uuid}`],
          connections: options.httpConnections,
          seconds: options.httpSeconds,
        },
        progress,
      );
    }
    case 'commands-list': {
      progress.update(`commands list: writing ${options.commandsSeed} commands`);
      const seeded = await seedCommands(target.databaseUrl, tenant.uuid, options.commandsSeed, 1000);
      const base = '/api/v1/control/commands?limit=50';
      const paths = [
        `${base}`,
        `${base}&filter[status]=accepted`,
        `${base}&filter[type]=clear_cache&filter[status]=failed`,
        `${base}&filter[target_uuid]=${seeded.sampleTarget}`,
        `${base}&filter[target_type]=controller&order_by=%2Bcreated_at&page=20`,
      ];
      const load = await httpLoad(
        'GET commands',
        {
          baseUrl: target.apiUrl,
          token,
          paths,
          connections: options.httpConnections,
          seconds: options.httpSeconds,
        },
        progress,
      );
      const depth = await measureListDepth(
        {
          apiUrl: target.apiUrl,
          token,
          seeded: options.commandsSeed,
          connections: options.httpConnections,
          seconds: options.httpSeconds,
        },
        progress,
      );
      return { seededCommands: options.commandsSeed, seedSeconds: seeded.seconds, paths, ...load, depth };
    }
    case 'authorize':
      return runAuthorizePhase(
        target,
        tenant,
        {
          chargePoints: options.authorizeChargePoints,
          tokens: options.authorizeTokens,
          rate: options.authorizeRate,
          seconds: options.authorizeSeconds,
        },
        progress,
      );
    case 'webhooks':
      return runWebhooksPhase(
        target,
        tenant,
        {
          chargePoints: options.commandChargePoints,
          commandRate: options.webhookCommandRate,
          seconds: options.webhookSeconds,
        },
        progress,
      );
    case 'commands': {
      progress.update(`commands: connecting ${options.commandChargePoints} charge points`);
      const bench = await CommandsBench.start(target, tenant, options.commandChargePoints);
      // The CPU per command counts the steps, not connecting the charge points.
      sampler.begin();
      try {
        const steps = [];
        for (const rate of options.commandRates) {
          steps.push(await bench.step(rate, options.commandSeconds, progress));
        }
        return { chargePoints: options.commandChargePoints, steps };
      } finally {
        await bench.stop();
      }
    }
  }
}

function printTable(reports: PhaseReport[]): void {
  const rows: string[][] = [['phase', 'figure', 'value']];
  for (const { phase, result } of reports) {
    const r = result as Record<string, unknown>;
    if (phase === 'idle') {
      rows.push([
        phase,
        'charge points held (of attempted)',
        `${String(r.connected)} (${String(r.attempted)})`,
      ]);
      rows.push([phase, 'gateway RSS per connection', `${String(r.rssPerConnectionKiB)} KiB`]);
      rows.push([
        phase,
        `gateway heap per connection (${String(r.heapReading)})`,
        `${(r.heapPerConnectionKiB as number | null) ?? 'n/a'} KiB`,
      ]);
      rows.push([phase, 'heartbeats answered', String(r.heartbeatsAnswered)]);
    } else if (phase === 'authorize') {
      const latency = r.roundTripMs as Record<string, number>;
      rows.push([
        `${phase} @${String(r.targetPerSecond)}/s`,
        'answered/s (by status), failed, skipped',
        `${String(r.answeredPerSecond)} ${JSON.stringify(r.byStatus)}, ${String(r.failed)}, ${String(r.skipped)}`,
      ]);
      rows.push([
        `${phase} @${String(r.targetPerSecond)}/s`,
        'round trip p50/p95/p99',
        `${latency.p50}/${latency.p95}/${latency.p99} ms`,
      ]);
    } else if (phase === 'webhooks') {
      const label = `${phase} @${String(r.statusEventsPerSecond)} status changes/s`;
      const latency = r.eventToReceiverMs as Record<string, number>;
      rows.push([label, 'deliveries/s (healthy receiver)', String(r.deliveriesPerSecond)]);
      rows.push([label, 'event → receiver p50/p95/p99', `${latency.p50}/${latency.p95}/${latency.p99} ms`]);
      rows.push([
        label,
        'events, delivered, lost, repeated, other webhook-id',
        `${String(r.statusEvents)}, ${String(r.delivered)}, ${String(r.lost)}, ${String(r.repeated)}, ${String(r.differentIds)}`,
      ]);
      rows.push([label, 'requests to the receiver that times out', String(r.timedOutReceiverRequests)]);
    } else if (phase === 'telemetry') {
      telemetryRows(result as TelemetryResult, rows);
    } else if (phase === 'reconnect-storm') {
      stormRows(result as StormResult, rows);
    } else if (phase === 'location' || phase === 'commands-list') {
      const latency = r.latencyMs as Record<string, number>;
      rows.push([phase, 'requests/s', `${String(r.requestsPerSecond)} (${String(r.non2xx)} non-2xx)`]);
      rows.push([phase, 'latency p50/p97.5/p99', `${latency.p50}/${latency.p97_5}/${latency.p99} ms`]);
      const depth = r.depth as ListDepthResult | undefined;
      if (depth) {
        for (const [label, load] of [
          ['page 1', depth.firstPage],
          [`page ${depth.deepPage} (offset)`, depth.deepNumberedPage],
          [`as deep by cursor`, depth.deepCursorPage],
        ] as const) {
          rows.push([
            phase,
            `${label}: req/s, p50/p99`,
            `${load.requestsPerSecond}, ${load.latencyMs.p50}/${load.latencyMs.p99} ms`,
          ]);
        }
      }
    } else {
      for (const step of r.steps as Record<string, unknown>[]) {
        const label = `${phase} @${String(step.targetPerSecond)}/s`;
        const ms = (key: string) => {
          const s = step[key] as Record<string, number | null>;
          return `${s.p50}/${s.p95}/${s.p99} ms`;
        };
        rows.push([
          label,
          'created/s, terminal/s end to end',
          `${String(step.createdPerSecond)}, ${String(step.endToEndPerSecond)}`,
        ]);
        rows.push([
          label,
          'terminal (by status, refused POSTs included)',
          `${String(step.terminal)} ${JSON.stringify(step.byStatus)}`,
        ]);
        rows.push([
          label,
          'POSTs refused (by status), skipped',
          `${String(step.refused)} ${JSON.stringify(step.refusedBy)}, ${String(step.skipped)}`,
        ]);
        rows.push([label, 'POST p50/p95/p99', ms('postMs')]);
        rows.push([label, 'POST → received p50/p95/p99', ms('postToReceivedMs')]);
        rows.push([label, 'POST → terminal p50/p95/p99', ms('postToTerminalMs')]);
        rows.push([label, 'load generator event-loop delay p50/p95/p99', ms('loadGeneratorDelayMs')]);
      }
    }
  }
  for (const { phase, result, usage } of reports) {
    // Telemetry's usage is per step, in its rows above.
    if (phase === 'telemetry') continue;
    const perCommand = phase === 'commands' ? cpuPerCommand(result, usage) : {};
    for (const [service, figures] of Object.entries(usage)) {
      const cpuMs = perCommand[service] === undefined ? '' : `, ${perCommand[service]} ms CPU per command`;
      rows.push([
        phase,
        `${service} CPU / max RSS`,
        `${figures.cpuPercent}% / ${figures.maxRssMiB === null ? '–' : `${figures.maxRssMiB} MiB`}${cpuMs}`,
      ]);
    }
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
}

function telemetryRows(result: TelemetryResult, rows: string[][]): void {
  rows.push([
    'telemetry',
    'charge points ready (connected, charging, of attempted)',
    `${result.ready} (${result.connected}, ${result.charging}, ${result.attempted})`,
  ]);
  const ms = (summary: { p50: number | null; p95: number | null; p99: number | null }) =>
    `${summary.p50}/${summary.p95}/${summary.p99} ms`;
  for (const step of result.steps) {
    const label = `telemetry ×${step.multiplier}`;
    const answered = step.answered;
    rows.push([
      label,
      'acknowledged/s (offered/s)',
      `${step.acknowledgedPerSecond} (${step.offeredPerSecond.messages})`,
    ]);
    rows.push([
      label,
      'answered: heartbeat, status, meter; errors, unanswered',
      `${answered.heartbeat}, ${answered.status}, ${answered.meter}; ${JSON.stringify(step.errors)}, ${step.unanswered}`,
    ]);
    rows.push([label, 'round trip p50/p95/p99', ms(step.roundTripMs)]);
    rows.push([
      label,
      'samples stored (of acknowledged), stored/s',
      `${step.samples.stored} (${step.samples.acknowledged}), ${step.samples.storedPerSecond}`,
    ]);
    rows.push([
      label,
      'status changes logged (of acknowledged)',
      `${step.statusChanges.logged} (${step.statusChanges.acknowledged})`,
    ]);
    rows.push([
      label,
      'receipt → stored p50/p95/p99',
      'unavailable' in step.receiptToStoredMs
        ? step.receiptToStoredMs.unavailable
        : ms(step.receiptToStoredMs),
    ]);
    rows.push([label, 'sent → stored p50/p95/p99', ms(step.sentToStoredMs)]);
    for (const [service, figures] of Object.entries(step.usage)) {
      const perMessage = step.cpuMsPerMessage[service];
      rows.push([
        label,
        `${service} CPU / max RSS`,
        `${figures.cpuPercent}% / ${figures.maxRssMiB === null ? '–' : `${figures.maxRssMiB} MiB`}` +
          (perMessage === undefined ? '' : `, ${perMessage} ms CPU per message`),
      ]);
    }
  }
}

function stormRows(result: StormResult, rows: string[][]): void {
  const label = 'reconnect-storm';
  const ms = (summary: { p50: number | null; p95: number | null; p99: number | null }) =>
    `${summary.p50}/${summary.p95}/${summary.p99} ms`;
  const secondsOrNot = (value: number | null) => (value === null ? 'not reached' : `${value} s`);
  rows.push([
    label,
    'charge points (connectors each; booted before the kill)',
    `${result.attempted} (${result.connectors}; ${result.initiallyReady})`,
  ]);
  rows.push([label, 'gateway SIGKILL → new instance ready', `${result.gatewayRestartSeconds} s`]);
  rows.push([
    label,
    'after the reconnect order: all accepted, all online, both',
    `${secondsOrNot(result.allAcceptedSeconds)}, ${secondsOrNot(result.allOnlineSeconds)}, ` +
      secondsOrNot(result.allAcceptedAndOnlineSeconds),
  ]);
  rows.push([
    label,
    'accepted, online (database), online (API)',
    `${result.accepted}, ${result.online}, ${result.onlineInApi}`,
  ]);
  rows.push([label, 'BootNotification round trip p50/p95/p99', ms(result.bootRoundTripMs)]);
  rows.push([label, 'order → accepted p50/p95/p99', ms(result.acceptedMs)]);
  rows.push([
    label,
    'refused (by status), connect errors, dropped',
    `${result.refused} ${JSON.stringify(result.refusedBy)}, ${JSON.stringify(result.connectErrors)}, ${result.dropped}`,
  ]);
  const commands = result.commands;
  rows.push([
    label,
    'commands: created, delivered, missing, repeated, out of order',
    `${commands.created}, ${commands.delivered}, ${commands.missing}, ${commands.repeated}, ` +
      `${commands.outOfOrder.length} charge points`,
  ]);
  rows.push([
    label,
    'commands by status (POSTs refused)',
    `${JSON.stringify(commands.byStatus)} (${JSON.stringify(commands.refusedBy)})`,
  ]);
}

/**
 * The servers' processes on this machine, found by their command lines: the nats-server listening on the platform's
 * NATS port, and the PostgreSQL backends of its database (their process titles name it).
 */
function serverProcessGroups(target: BenchTarget): Map<string, ProcessGroupCpu> {
  const natsPort = new URL(target.natsUrl).port || '4222';
  const database = new URL(target.databaseUrl).pathname.slice(1);
  return new Map([
    ['nats-server', new ProcessGroupCpu(() => findPidsByCommandLine(['nats-server', ` -p ${natsPort} `]))],
    [
      'postgresql (backends of the database)',
      new ProcessGroupCpu(() => findPidsByCommandLine(['postgres: ', ` ${database} `])),
    ],
  ]);
}

/** CPU milliseconds per command of each process over the commands phase (all its steps), from its CPU seconds. */
function cpuPerCommand(result: unknown, usage: Record<string, UsageSummary>): Record<string, number> {
  const steps = (result as { steps: { terminal: number }[] }).steps;
  const commands = steps.reduce((sum, step) => sum + step.terminal, 0);
  if (commands === 0) return {};
  return Object.fromEntries(
    Object.entries(usage)
      .filter(([, figures]) => figures.cpuSeconds !== undefined)
      .map(([name, figures]) => [name, Math.round((figures.cpuSeconds! / commands) * 1e5) / 100]),
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const options = parseBenchOptions(process.argv.slice(2), process.env);
  const progress = new Progress();
  const traceSink = options.traceSampling === undefined ? undefined : await OtlpSink.start();
  const started = options.external
    ? undefined
    : await startBenchPlatform(
        (line) => progress.done(line),
        traceSink ? tracingEnvironment(traceSink, options.traceSampling!) : {},
      );
  const target: BenchTarget = started?.target ?? {
    ...options.external!,
    natsPasswords: {
      'auth-service': process.env[natsPasswordVariable('auth-service')],
      bench: process.env[natsPasswordVariable('bench')],
    },
    apiPort: Number(new URL(options.external!.apiUrl).port || 80),
  };
  const stopAll = async () => {
    progress.done('stopping');
    await started?.stop();
    await traceSink?.stop();
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    const tenant = await createBenchTenant(repositoryRoot, target);
    const pids = findServicePids(PLATFORM_SERVICES, target.apiPort);
    pids.set('bench (load generator)', process.pid);
    const sampler = new ProcessUsageSampler(pids, cpus().length, serverProcessGroups(target));
    const reports: PhaseReport[] = [];
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
      startedPlatform: !options.external,
    };
    mkdirSync(dirname(options.out), { recursive: true });
    for (const phase of options.phases) {
      sampler.begin();
      const result = await runPhase(phase, options, target, tenant, pids, progress, sampler);
      const usage = sampler.summary();
      // Spans leave the services in batches every 5 s (the SDK's OTEL_BSP_SCHEDULE_DELAY): wait for the phase's last.
      if (traceSink) await new Promise((resolve) => setTimeout(resolve, TRACE_EXPORT_WAIT_MS));
      reports.push({
        phase,
        result,
        usage,
        ...(phase === 'commands' ? { cpuMsPerCommand: cpuPerCommand(result, usage) } : {}),
        // Counted from the start of the run: the spans of earlier phases' requests are in it too.
        ...(traceSink
          ? { traceSampling: options.traceSampling, tracesExported: { ...traceSink.exported } }
          : {}),
      });
      // Written after every phase, so an interrupted run keeps what it measured.
      const results = { at: new Date().toISOString(), machine, options, reports };
      writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
      if (phase === 'commands') {
        const { steps } = result as { steps: PlottedStep[] };
        writeFileSync(plotPathFor(options.out), commandLatencySvg(steps, machineSubtitle(machine)));
      }
      progress.done(`${phase}: done`);
    }
    sampler.stop();
    printTable(reports);
    console.log(`\nresults: ${options.out}`);
    if (options.phases.includes('commands')) console.log(`latency plot: ${plotPathFor(options.out)}`);
  } catch (error) {
    for (const service of PLATFORM_SERVICES) {
      const lines = started?.output(service).slice(-10) ?? [];
      if (lines.length > 0) console.error(`--- ${service}, last lines:\n${lines.join('\n')}`);
    }
    throw error;
  } finally {
    await stopAll();
  }
}

main().catch((error: unknown) => {
  console.error(describeError(error));
  process.exit(1);
});
