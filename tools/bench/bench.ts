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
import { highestRateHeld } from './command-step-verdict.js';
import { CommandsBench } from './commands-phase.js';
import { seedCommands } from './commands-seed.js';
import { httpLoad } from './http-load.js';
import { runIdlePhase } from './idle-phase.js';
import { measureListDepth } from './list-depth.js';
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
import { runTelemetryPhase } from './telemetry-phase.js';
import { cpuPerCommand, formatTable, summaryRows, terminalCommands } from './summary-table.js';
import { htmlReport, htmlReportPathFor } from './html-report.js';
import { runReconnectStormPhase } from './storm-phase.js';
import { type ExportedTraces, OtlpSink, tracingEnvironment } from './otlp-sink.js';
import { sumWork, WorkCounterReader, type WorkCounters, workBetween, workPer } from './work-counters.js';

/** Longer than the batch span processor's default export delay (5 s), so a phase's spans are counted with it. */
const TRACE_EXPORT_WAIT_MS = 6000;

interface PhaseReport {
  phase: Phase;
  result: unknown;
  usage: Record<string, UsageSummary>;
  cpuMsPerCommand?: Record<string, number>;
  /** What the servers did over the phase (work-counters.ts); for commands, over its steps and per terminal command. */
  work?: { done: WorkCounters; perCommand?: Record<string, number> };
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
  counters: WorkCounterReader,
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
          processes: options.authorizeProcesses,
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
          warmUpSeconds: options.webhookWarmUpSeconds,
          timingOutReceiver: options.webhookTimingOutReceiver,
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
          const before = await counters.read();
          const step = await bench.step(rate, options.commandSeconds, progress);
          const work = workBetween(before, await counters.read());
          steps.push({ ...step, work, workPerCommand: workPer(work, step.terminal) });
        }
        return { chargePoints: options.commandChargePoints, steps, highestRateHeld: highestRateHeld(steps) };
      } finally {
        await bench.stop();
      }
    }
  }
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
        options.commandServiceReplicas,
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
    const replicaPids = started?.replicaPids ?? new Map<string, number>();
    const pids = findServicePids(PLATFORM_SERVICES, target.apiPort, '/proc', new Set(replicaPids.values()));
    for (const [name, pid] of replicaPids) pids.set(name, pid);
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
    const counters = new WorkCounterReader(target.databaseUrl, target.natsMonitorUrl);
    for (const phase of options.phases) {
      sampler.begin();
      const before = await counters.read();
      const result = await runPhase(phase, options, target, tenant, pids, progress, sampler, counters);
      const usage = sampler.summary();
      // A commands phase's work is its steps', without connecting its charge points (as its CPU per command).
      const done = phase === 'commands' ? sumWork(result) : workBetween(before, await counters.read());
      // Spans leave the services in batches every 5 s (the SDK's OTEL_BSP_SCHEDULE_DELAY): wait for the phase's last.
      if (traceSink) await new Promise((resolve) => setTimeout(resolve, TRACE_EXPORT_WAIT_MS));
      reports.push({
        phase,
        result,
        usage,
        ...(phase === 'commands' ? { cpuMsPerCommand: cpuPerCommand(result, usage) } : {}),
        work: {
          done,
          ...(phase === 'commands' ? { perCommand: workPer(done, terminalCommands(result)) } : {}),
        },
        // Counted from the start of the run: the spans of earlier phases' requests are in it too.
        ...(traceSink
          ? { traceSampling: options.traceSampling, tracesExported: { ...traceSink.exported } }
          : {}),
      });
      // Written after every phase, so an interrupted run keeps what it measured.
      const results = { at: new Date().toISOString(), machine, options, reports };
      writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
      writeFileSync(htmlReportPathFor(options.out), htmlReport(results));
      if (phase === 'commands') {
        const { steps } = result as { steps: PlottedStep[] };
        writeFileSync(plotPathFor(options.out), commandLatencySvg(steps, machineSubtitle(machine)));
      }
      progress.done(`${phase}: done`);
    }
    sampler.stop();
    await counters.close();
    console.log(formatTable(summaryRows(reports)));
    console.log(`\nresults: ${options.out}`);
    console.log(`report: ${htmlReportPathFor(options.out)}`);
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
