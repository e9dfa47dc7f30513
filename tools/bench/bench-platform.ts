import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { existsSync } from 'node:fs';
import {
  configuredNatsLogin,
  findFreePort,
  healthPortVariable,
  natsClientEnvironment,
  Platform,
  PLATFORM_SERVICES,
  type ServiceName,
  ServiceProcess,
} from '@cpc/platform-launcher';
import type { BenchTarget } from './bench-setup.js';
import { HeapAfterGc } from './heap-after-gc.js';
import { findServicePids } from './process-usage.js';

export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Limits that protect a production API from one client would throttle the load generator itself. */
const BENCH_ENV = {
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  API_RATE_LIMIT_PER_SUBJECT: '100000000',
  TOKEN_RATE_LIMIT_PER_ADDRESS: '100000',
  TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: '100000',
  TOKEN_FAILURE_LIMIT_PER_ACCOUNT: '100000',
  // Every simulated charge point connects from 127.0.0.1.
  OCPP_MAX_CONCURRENT_HANDSHAKES_PER_ADDRESS: '100000',
  // The webhooks phase's receivers listen on http://127.0.0.1.
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8',
};

/**
 * SIGUSR1 opens a service's inspector on a free port of 127.0.0.1 (never the shared 9229), where the idle phase reads
 * the gateway's heap after a full collection.
 */
const INSPECT_ON_SIGNAL = '--inspect-port=0';

/** A gateway started after a kill comes up while the killed one's fleet knocks: a busy machine takes a while. */
const GATEWAY_READY_TIMEOUT_MS = 180_000;

/**
 * The whole platform as `npm start` runs it, on free ports, a database of its own on the local PostgreSQL
 * (`cpc_bench_<time>`, dropped afterwards) and a NATS server of its own; the services' output is kept, not printed.
 */
export async function startBenchPlatform(
  log: (line: string) => void,
  /** The services' OTEL_* variables (a traced run); none: tracing off. */
  tracingEnv: Record<string, string> = {},
  /** command-service processes: the launcher's one and more beside it. */
  commandServiceReplicas = 1,
): Promise<{
  target: BenchTarget;
  output: (service: ServiceName) => string[];
  /** The processes of the replicas beyond the first, by a name of their own (`command-service #2`, …). */
  replicaPids: Map<string, number>;
  stop: () => Promise<void>;
}> {
  const [apiPort, ocppPort, natsPort, natsMonitorPort, ...healthPorts] = await Promise.all(
    Array.from({ length: 4 + PLATFORM_SERVICES.length + commandServiceReplicas - 1 }, findFreePort),
  );
  const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const databaseName = `cpc_bench_${Date.now()}`;
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/${databaseName}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...BENCH_ENV,
    ...tracingEnv,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, INSPECT_ON_SIGNAL].filter(Boolean).join(' '),
    DATABASE_URL: databaseUrl.toString(),
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    API_PORT: String(apiPort),
    OCPP_PORT: String(ocppPort),
    ...Object.fromEntries(
      PLATFORM_SERVICES.map((service, index) => [healthPortVariable(service), String(healthPorts[index])]),
    ),
  };
  const lines = new Map<string, string[]>();
  const keepOutput = (name: string) => (line: string) => {
    const kept = lines.get(name) ?? [];
    kept.push(line);
    if (kept.length > 200) kept.shift();
    lines.set(name, kept);
  };
  // A store of its own: events a saturated earlier run left in the streams would be replayed into this one.
  const natsStoreDir = await mkdtemp(join(tmpdir(), 'cpc-bench-nats-'));
  const platform = new Platform({
    rootDir: repositoryRoot,
    natsStoreDir,
    natsMonitorPort,
    env,
    log,
    output: keepOutput,
  });
  const summary = await platform.start();
  const serviceEnv = (service: ServiceName): NodeJS.ProcessEnv => ({
    ...env,
    ...(summary.natsPasswords
      ? natsClientEnvironment(service, summary.natsPasswords)
      : configuredNatsLogin(env, service)),
  });
  const replicas = Array.from({ length: commandServiceReplicas - 1 }, (_, index) => {
    const name = `command-service #${index + 2}`;
    return {
      name,
      process: new ServiceProcess({
        rootDir: repositoryRoot,
        service: 'command-service',
        env: {
          ...serviceEnv('command-service'),
          HEALTH_PORT: String(healthPorts[PLATFORM_SERVICES.length + index]),
        },
        onLine: keepOutput(name),
      }),
    };
  });
  await Promise.all(replicas.map(({ process }) => process.start()));
  const replicaPids = new Map<string, number>();
  for (const { name, process } of replicas) {
    if (process.process.pid !== undefined) replicaPids.set(name, process.process.pid);
  }
  const gatewayHealthPort = healthPorts[PLATFORM_SERVICES.indexOf('ocpp-gateway')];
  const gatewayPid = () => findServicePids(['ocpp-gateway'], apiPort).get('ocpp-gateway');
  /** The instance started after a kill, if any (the launcher's own was the first). */
  let replacement: ServiceProcess | undefined;
  return {
    target: {
      apiUrl: `http://127.0.0.1:${apiPort}`,
      ocppUrl: `ws://127.0.0.1:${ocppPort}`,
      databaseUrl: databaseUrl.toString(),
      natsUrl: env.NATS_URL!,
      natsMonitorUrl: `http://127.0.0.1:${natsMonitorPort}`,
      natsPasswords: {
        'auth-service': summary.natsPasswords?.['auth-service'],
        bench: summary.natsPasswords?.bench,
      },
      apiPort,
      ocppGatewayMetricsUrl: `http://127.0.0.1:${gatewayHealthPort}/metrics`,
      serviceMetricsUrls: Object.fromEntries(
        PLATFORM_SERVICES.map((service, index) => [
          service,
          `http://127.0.0.1:${healthPorts[index]}/metrics`,
        ]),
      ),
      openGatewayHeapAfterGc: () => {
        const pid = findServicePids(['ocpp-gateway'], apiPort).get('ocpp-gateway');
        if (pid === undefined) throw new Error('no ocpp-gateway process found on this machine');
        return HeapAfterGc.open(pid, () => lines.get('ocpp-gateway') ?? []);
      },
      killOcppGateway: async () => {
        if (replacement?.process.isRunning) {
          await replacement.kill();
          return;
        }
        const pid = gatewayPid();
        if (pid === undefined) throw new Error('no ocpp-gateway process found on this machine');
        process.kill(pid, 'SIGKILL');
        // The launcher (this process) reaps it; until then /proc still lists it.
        while (existsSync(`/proc/${pid}`)) await new Promise((resolve) => setTimeout(resolve, 20));
      },
      startOcppGateway: async () => {
        replacement = new ServiceProcess({
          rootDir: repositoryRoot,
          service: 'ocpp-gateway',
          env: { ...serviceEnv('ocpp-gateway'), HEALTH_PORT: String(gatewayHealthPort) },
          onLine: keepOutput('ocpp-gateway'),
          readyTimeoutMs: GATEWAY_READY_TIMEOUT_MS,
          detached: true,
        });
        await replacement.start();
        const pid = replacement.process.pid;
        if (pid === undefined) throw new Error('the new ocpp-gateway exited right after it was ready');
        return pid;
      },
    },
    output: (service) => lines.get(service) ?? [],
    replicaPids,
    stop: async () => {
      await replacement?.stop();
      await Promise.all(replicas.map(({ process }) => process.stop()));
      await platform.stop();
      const client = new pg.Client({ connectionString: server.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await client.end();
      await rm(natsStoreDir, { recursive: true, force: true });
    },
  };
}
