import { parseArgs } from 'node:util';

/**
 * The fleets last: closing thousands of sockets keeps the gateway and assets-service busy for a while afterwards.
 * Telemetry after idle, whose teardown is over by the time telemetry's fleet has connected and its steps begin; the
 * reconnect storm last of all, as it kills the gateway and leaves a new instance in its place.
 */
export const PHASES = [
  'location',
  'commands-list',
  'commands',
  'webhooks',
  'authorize',
  'idle',
  'telemetry',
  'reconnect-storm',
] as const;
export type Phase = (typeof PHASES)[number];

export interface BenchOptions {
  phases: Phase[];
  /** A running platform to measure instead of starting one (all four URLs needed). */
  external?: { apiUrl: string; ocppUrl: string; databaseUrl: string; natsUrl: string };
  idleCount: number;
  heartbeatSeconds: number;
  connectsPerSecond: number;
  idleHoldSeconds: number;
  httpSeconds: number;
  httpConnections: number;
  commandsSeed: number;
  commandChargePoints: number;
  commandRates: number[];
  commandSeconds: number;
  /** Commands per second of the webhooks phase (three status changes each) and how long it sends them. */
  webhookCommandRate: number;
  webhookSeconds: number;
  webhookWarmUpSeconds: number;
  webhookTimingOutReceiver: boolean;
  /** command-service processes the bench's platform runs (production runs two at least). */
  commandServiceReplicas: number;
  /** Tracing of the started platform: the ratio of commands traced (0 to 1), exported to an OTLP sink; undefined: off. */
  traceSampling?: number;
  authorizeChargePoints: number;
  authorizeTokens: number;
  authorizeRate: number;
  authorizeSeconds: number;
  authorizeProcesses: number;
  telemetryChargePoints: number;
  telemetryChargingShare: number;
  telemetryHeartbeatSeconds: number;
  telemetryMeterSeconds: number;
  telemetryMeasurands: number;
  telemetryStatusSeconds: number;
  telemetryRateMultipliers: number[];
  telemetrySeconds: number;
  stormChargePoints: number;
  /** Connectors each storm charge point reports with a StatusNotification after its BootNotification. */
  stormConnectors: number;
  /** The fixed delay before a refused or failed reconnect is tried again (no random back-off). */
  stormRetrySeconds: number;
  /** Charge points that get commands during the storm, and how many each (half before the reconnect, half during). */
  stormCommandChargePoints: number;
  stormCommandsEach: number;
  /** How long the storm is given to bring every charge point back. */
  stormTimeoutSeconds: number;
  out: string;
}

export const USAGE = `npm run bench -- [options]   (each option also as BENCH_<NAME> in the environment)
  --phases location,commands-list,commands,webhooks,authorize,idle,telemetry,reconnect-storm
                             which phases, in this order (default: all)
  --api-url, --ocpp-url, --database-url, --nats-url   measure a running platform instead of starting one
  --idle-count 20000         idle charge points for one gateway (capped by its open-file limit)
  --heartbeat-seconds 30     their Heartbeat interval
  --connect-rate 200         new connections per second
  --idle-hold-seconds 30     how long they are held once connected
  --http-seconds 15          duration of each HTTP load
  --http-connections 50      autocannon connections
  --commands-seed 1000000    commands written to control.commands before GET /control/commands
  --command-charge-points 200   OCPP-J charge points (half 1.6, half 2.0.1) answering the commands
  --command-rates 500,1000   commands per second, one step each
  --command-seconds 20       duration of each step
  --webhook-command-rate 334 commands per second of the webhooks phase (pending, sent, accepted: about 1,000
                             command status changes per second), on the commands phase's charge points
  --webhook-seconds 20       how long the webhooks phase sends them
  --webhook-warm-up-seconds 5   its first seconds, reported apart as well: the latencies of the events after them
                             are the steady state's
  --webhook-timing-out-receiver true   the second subscription, whose receiver never answers (false: without it,
                             to compare)
  --command-service-replicas 1   command-service processes of the platform the bench starts (deployed: 2 or more),
                             side by side on one database
  --trace-sampling 0.01      trace this share of requests (0 to 1), exported as OTLP to a sink in the bench; the
                             services' CPU per command against a run without it is tracing's cost (default: off)
  --authorize-charge-points 400  OCPP-J charge points (half 1.6, half 2.0.1) sending Authorize (5/s each at
                             2,000/s, within the gateway's per-charge-point call budget)
  --authorize-tokens 10000   id tokens imported for the tenant first
  --authorize-rate 2000      Authorize calls per second, in all
  --authorize-seconds 15     duration of the Authorize load
  --authorize-processes 2    child processes the Authorize charge points and rate are divided over
  --telemetry-charge-points 20000   charge points (half 1.6, half 2.0.1) reporting telemetry to one gateway
                             (capped by its open-file limit; they connect at --connect-rate)
  --telemetry-charging-share 0.1    share of them in a transaction, sending meter values
  --telemetry-heartbeat-seconds 60  Heartbeat interval of each
  --telemetry-meter-seconds 10      meter-value interval of each charging one (1.6 MeterValues, 2.0.1
                             TransactionEvent Updated)
  --telemetry-measurands 4   sampled values per meter-value message (1 to 8)
  --telemetry-status-seconds 600    interval of each one's StatusNotification changes
  --telemetry-rate-multipliers 1,5  one step each, every interval divided by the multiplier
  --telemetry-seconds 60     duration of each step
  --storm-charge-points 19900   charge points (half 1.6, half 2.0.1) on one gateway, which is then killed
                             (SIGKILL); all reconnect at once to a new instance (capped by its open-file limit;
                             they first connect at --connect-rate)
  --storm-connectors 2       StatusNotifications each sends after its BootNotification, one per connector
  --storm-retry-seconds 1    fixed delay before a refused or failed reconnect is tried again (no random back-off)
  --storm-command-charge-points 20   charge points that get remote starts during the storm, checked for order
  --storm-commands-each 6    commands for each of them: half while the gateway is down, half during the reconnects
  --storm-timeout-seconds 180   how long the storm is given to bring every charge point back
  --out <file>               JSON results (default bench-results/bench-<time>.json)`;

export function parseBenchOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(
      [
        'phases',
        'api-url',
        'ocpp-url',
        'database-url',
        'nats-url',
        'idle-count',
        'heartbeat-seconds',
        'connect-rate',
        'idle-hold-seconds',
        'http-seconds',
        'http-connections',
        'commands-seed',
        'command-charge-points',
        'command-rates',
        'command-seconds',
        'webhook-command-rate',
        'webhook-seconds',
        'webhook-warm-up-seconds',
        'webhook-timing-out-receiver',
        'command-service-replicas',
        'trace-sampling',
        'authorize-charge-points',
        'authorize-tokens',
        'authorize-rate',
        'authorize-seconds',
        'authorize-processes',
        'telemetry-charge-points',
        'telemetry-charging-share',
        'telemetry-heartbeat-seconds',
        'telemetry-meter-seconds',
        'telemetry-measurands',
        'telemetry-status-seconds',
        'telemetry-rate-multipliers',
        'telemetry-seconds',
        'storm-charge-points',
        'storm-connectors',
        'storm-retry-seconds',
        'storm-command-charge-points',
        'storm-commands-each',
        'storm-timeout-seconds',
        'out',
      ].map((name) => [name, { type: 'string' as const }]),
    ),
  });
  const value = (name: string): string | undefined =>
    (values as Record<string, string | undefined>)[name] ??
    env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    const parsed = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(parsed) || parsed <= 0)
      throw new Error(`--${name} must be a positive number, not "${raw}"`);
    return parsed;
  };
  const list = (name: string, fallback: string): number[] => {
    const raw = value(name) ?? fallback;
    const parsed = raw.split(',').map(Number);
    if (parsed.some((entry) => !Number.isFinite(entry) || entry <= 0))
      throw new Error(`--${name} must be positive numbers separated by commas, not "${raw}"`);
    return parsed;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (raw !== 'true' && raw !== 'false') throw new Error(`--${name} must be true or false, not "${raw}"`);
    return raw === 'true';
  };
  const chargingShare = number('telemetry-charging-share', 0.1);
  if (chargingShare > 1)
    throw new Error(`--telemetry-charging-share must be at most 1, not ${chargingShare}`);
  const measurands = number('telemetry-measurands', 4);
  if (!Number.isInteger(measurands) || measurands > 8)
    throw new Error(`--telemetry-measurands must be a whole number from 1 to 8, not ${measurands}`);
  const whole = (name: string, fallback: number): number => {
    const parsed = number(name, fallback);
    if (!Number.isInteger(parsed)) throw new Error(`--${name} must be a whole number, not ${parsed}`);
    return parsed;
  };
  const commandServiceReplicas = whole('command-service-replicas', 1);
  const stormConnectors = whole('storm-connectors', 2);
  if (stormConnectors > 10) throw new Error(`--storm-connectors must be 1 to 10, not ${stormConnectors}`);
  const phases = (value('phases') ?? PHASES.join(',')).split(',') as Phase[];
  const unknown = phases.filter((phase) => !PHASES.includes(phase));
  if (unknown.length > 0)
    throw new Error(`unknown phases: ${unknown.join(', ')} (known: ${PHASES.join(', ')})`);
  const urls = ['api-url', 'ocpp-url', 'database-url', 'nats-url'].map(value);
  if (urls.some(Boolean) && !urls.every(Boolean)) {
    throw new Error('a running platform needs all of --api-url, --ocpp-url, --database-url and --nats-url');
  }
  const [apiUrl, ocppUrl, databaseUrl, natsUrl] = urls as string[];
  const samplingText = value('trace-sampling');
  const traceSampling = samplingText === undefined ? undefined : Number(samplingText);
  if (traceSampling !== undefined && !(traceSampling >= 0 && traceSampling <= 1))
    throw new Error(`--trace-sampling must be a number from 0 to 1, not "${samplingText}"`);
  if (traceSampling !== undefined && apiUrl)
    throw new Error('--trace-sampling configures the platform the bench starts, not a running one');
  if (commandServiceReplicas > 1 && apiUrl)
    throw new Error('--command-service-replicas configures the platform the bench starts, not a running one');
  return {
    phases,
    ...(apiUrl ? { external: { apiUrl, ocppUrl, databaseUrl, natsUrl } } : {}),
    idleCount: number('idle-count', 20_000),
    heartbeatSeconds: number('heartbeat-seconds', 30),
    connectsPerSecond: number('connect-rate', 200),
    idleHoldSeconds: number('idle-hold-seconds', 30),
    httpSeconds: number('http-seconds', 15),
    httpConnections: number('http-connections', 50),
    commandsSeed: number('commands-seed', 1_000_000),
    commandChargePoints: number('command-charge-points', 200),
    commandRates: (value('command-rates') ?? '500,1000').split(',').map(Number),
    commandSeconds: number('command-seconds', 20),
    webhookCommandRate: number('webhook-command-rate', 334),
    webhookSeconds: number('webhook-seconds', 20),
    webhookWarmUpSeconds: number('webhook-warm-up-seconds', 5),
    webhookTimingOutReceiver: flag('webhook-timing-out-receiver', true),
    commandServiceReplicas,
    ...(traceSampling === undefined ? {} : { traceSampling }),
    authorizeChargePoints: number('authorize-charge-points', 400),
    authorizeTokens: number('authorize-tokens', 10_000),
    authorizeRate: number('authorize-rate', 2000),
    authorizeSeconds: number('authorize-seconds', 15),
    authorizeProcesses: number('authorize-processes', 2),
    telemetryChargePoints: number('telemetry-charge-points', 20_000),
    telemetryChargingShare: chargingShare,
    telemetryHeartbeatSeconds: number('telemetry-heartbeat-seconds', 60),
    telemetryMeterSeconds: number('telemetry-meter-seconds', 10),
    telemetryMeasurands: measurands,
    telemetryStatusSeconds: number('telemetry-status-seconds', 600),
    telemetryRateMultipliers: list('telemetry-rate-multipliers', '1,5'),
    telemetrySeconds: number('telemetry-seconds', 60),
    stormChargePoints: whole('storm-charge-points', 19_900),
    stormConnectors,
    stormRetrySeconds: number('storm-retry-seconds', 1),
    stormCommandChargePoints: whole('storm-command-charge-points', 20),
    stormCommandsEach: whole('storm-commands-each', 6),
    stormTimeoutSeconds: number('storm-timeout-seconds', 180),
    out: value('out') ?? `bench-results/bench-${new Date().toISOString().replaceAll(':', '-')}.json`,
  };
}
