import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LineListener } from './captured-output.js';
import { ManagedProcess, runToCompletion } from './managed-process.js';
import { httpReadyCheck, waitForReady } from './readiness.js';

/** The platform's services in start order: owners of data first, the gateways (the entry points) last. */
export const PLATFORM_SERVICES = [
  'auth-service',
  'assets-service',
  'command-service',
  'webhook-service',
  'ocpp-gateway',
  'api-gateway',
] as const;
export type ServiceName = (typeof PLATFORM_SERVICES)[number];

/** Services that own a database schema and have a `migrate` entry. */
export const SERVICES_WITH_MIGRATIONS: readonly ServiceName[] = [
  'auth-service',
  'assets-service',
  'command-service',
  'webhook-service',
];

export const DEFAULT_API_PORT = 3000;
export const DEFAULT_OCPP_PORT = 9000;
/** HEALTH_PORT defaults; api-gateway answers /health/ready on API_PORT and only GET /metrics on its HEALTH_PORT. */
export const DEFAULT_HEALTH_PORTS: Readonly<Record<ServiceName, number>> = {
  'auth-service': 3101,
  'assets-service': 3102,
  'command-service': 3103,
  'ocpp-gateway': 3104,
  'webhook-service': 3105,
  'api-gateway': 3100,
};

/**
 * V8 flags a service runs with, here and in the container image (deploy/docker/entrypoint.sh says the same). The
 * gateway's young generation may grow to 64 MB a semi-space: under a telemetry flood or a reconnect storm the objects
 * of the messages in flight outlived V8's default one and were promoted, and collecting them was a fifth of its time
 * (docs/performance.md).
 */
export const SERVICE_V8_FLAGS: Readonly<Record<ServiceName, readonly string[]>> = {
  'auth-service': [],
  'assets-service': [],
  'command-service': [],
  'webhook-service': [],
  'ocpp-gateway': ['--max-semi-space-size=64'],
  'api-gateway': [],
};

export type ServiceEntry = 'main' | 'migrate';

/** Compiled entry of a service (`npm run build` writes `dist/`). */
export function serviceEntryPath(rootDir: string, service: ServiceName, entry: ServiceEntry): string {
  return join(rootDir, 'dist', 'apps', service, 'src', `${entry}.js`);
}

export function adminCliEntryPath(rootDir: string): string {
  return join(rootDir, 'dist', 'apps', 'auth-service', 'src', 'admin-cli', 'main.js');
}

/** Throws one message naming every compiled entry the given services need that is not there. */
export function assertEntriesBuilt(rootDir: string, services: readonly ServiceName[]): void {
  const needed = services.flatMap((service) => [
    serviceEntryPath(rootDir, service, 'main'),
    ...(SERVICES_WITH_MIGRATIONS.includes(service) ? [serviceEntryPath(rootDir, service, 'migrate')] : []),
  ]);
  const missing = needed.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`not built yet (run \`npm run build\`):\n  ${missing.join('\n  ')}`);
  }
}

/** Where a service answers GET /health/ready, given the environment it runs with. */
export function readinessUrl(service: ServiceName, env: NodeJS.ProcessEnv): string {
  const port =
    service === 'api-gateway'
      ? (env.API_PORT ?? DEFAULT_API_PORT)
      : (env.HEALTH_PORT ?? DEFAULT_HEALTH_PORTS[service]);
  return `http://127.0.0.1:${port}/health/ready`;
}

export interface ServiceProcessOptions {
  /** The repository root, which holds `dist/`. */
  rootDir: string;
  service: ServiceName;
  /** The service's whole environment (DATABASE_URL, NATS_URL, its HEALTH_PORT, ...). */
  env: NodeJS.ProcessEnv;
  onLine?: LineListener;
  /** How long `start()` and `restart()` wait for /health/ready to answer 200 (default 60 s). */
  readyTimeoutMs?: number;
  detached?: boolean;
  stopGraceMs?: number;
}

/**
 * With CPC_CPU_PROFILE_DIR set (profiling a bench run, see docs/performance.md), each service writes a V8 CPU profile
 * there when it stops; Node refuses --cpu-prof in NODE_OPTIONS, so it is passed as an argument.
 */
function cpuProfileArguments(): string[] {
  const directory = process.env.CPC_CPU_PROFILE_DIR;
  return directory ? ['--cpu-prof', `--cpu-prof-dir=${directory}`] : [];
}

/** A service's `main` as a child process: started means /health/ready answered 200. */
export class ServiceProcess {
  readonly process: ManagedProcess;
  readonly readyUrl: string;

  constructor(private readonly options: ServiceProcessOptions) {
    this.readyUrl = readinessUrl(options.service, options.env);
    this.process = new ManagedProcess({
      name: options.service,
      command: process.execPath,
      args: [
        '--enable-source-maps',
        ...SERVICE_V8_FLAGS[options.service],
        ...cpuProfileArguments(),
        serviceEntryPath(options.rootDir, options.service, 'main'),
      ],
      env: options.env,
      cwd: options.rootDir,
      detached: options.detached,
      stopGraceMs: options.stopGraceMs,
      onLine: options.onLine,
    });
  }

  get name(): ServiceName {
    return this.options.service;
  }

  async start(): Promise<void> {
    this.process.start();
    await this.waitUntilReady();
  }

  waitUntilReady(): Promise<void> {
    return waitForReady(this.process, httpReadyCheck(this.readyUrl), {
      timeoutMs: this.options.readyTimeoutMs ?? 60000,
      target: `GET ${this.readyUrl}`,
    });
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }

  async kill(): Promise<void> {
    await this.process.kill();
  }

  /** Stops it if it runs (a killed one is simply started) and waits until it is ready again. */
  async restart(): Promise<void> {
    await this.process.stop();
    await this.start();
  }

  output(): string {
    return this.process.output();
  }
}

export interface RunMigrationsOptions {
  rootDir: string;
  service: ServiceName;
  env: NodeJS.ProcessEnv;
  onLine?: LineListener;
  timeoutMs?: number;
}

/** Runs a service's `migrate` entry; resolves when it exited 0, rejects with its last output otherwise. */
export async function runMigrations(options: RunMigrationsOptions): Promise<void> {
  await runToCompletion(
    {
      name: `${options.service} migrate`,
      command: process.execPath,
      args: ['--enable-source-maps', serviceEntryPath(options.rootDir, options.service, 'migrate')],
      env: options.env,
      cwd: options.rootDir,
      onLine: options.onLine,
    },
    options.timeoutMs,
  );
}
