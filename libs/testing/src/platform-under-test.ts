import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodeConnectionOptions } from '@nats-io/transport-node';
import type { NatsUserName } from '@cpc/contracts';
import {
  adminCliEntryPath,
  assertEntriesBuilt,
  type LineListener,
  PLATFORM_SERVICES,
  prefixedLineWriter,
  runMigrations,
  SERVICES_WITH_MIGRATIONS,
  type ServiceName,
  ServiceProcess,
} from '@cpc/platform-launcher';
import { findFreePort } from '@cpc/platform-launcher';
import { type NatsTestServer, startNatsTestServer } from './nats-test-server.js';
import { createPreparedTestDatabase, createTestDatabase, type TestDatabase } from './test-database.js';

export type { ServiceName } from '@cpc/platform-launcher';

export interface PlatformUnderTestOptions {
  /** Which services to run (default: all six). Migrations run for those among them that own a schema. */
  services?: ServiceName[];
  /** Extra environment for every service and the admin CLI; wins over the harness's own values. */
  env?: Record<string, string>;
  /**
   * How long each service may take to answer /health/ready with 200 (default 150 s: CI starts three suites' platforms
   * at once on two cores, and on a slow machine a service waited 60 s without a listener).
   */
  readyTimeoutMs?: number;
  /** Where `dist/` is (default: this repository). */
  rootDir?: string;
}

export interface ServiceUnderTest {
  /** SIGKILL, like a crash. */
  kill(): Promise<void>;
  /** SIGTERM, SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** Starts it again (stopping it first if it runs) and waits until it is ready. */
  restart(): Promise<void>;
  /** Everything it printed so far (stdout and stderr, the last 2000 lines). */
  output(): string;
  /** Its HEALTH_PORT: health and GET /metrics (api-gateway: only /metrics; its health is on API_PORT). */
  healthPort: number;
  /** Its `GET /health/ready` (200 when ready, 503 when not). */
  readonly readyUrl: string;
  /** Its process id while it runs (for CPU and memory readings in /proc). */
  pid(): number | undefined;
}

export interface PlatformUnderTest {
  /** http://127.0.0.1:<API_PORT>; the API itself is under /api/v1. */
  apiUrl: string;
  /** ws://127.0.0.1:<OCPP_PORT>; charge points connect to `${ocppUrl}/ocpp/<tenant>/<identity>`. */
  ocppUrl: string;
  natsUrl: string;
  /**
   * For a test's own NATS connection (`connect(platform.natsTestClientOptions)`): the broker runs with the platform's
   * authorization, each service logged in as its own user, and the test as an unrestricted test-only user.
   */
  natsTestClientOptions: NodeConnectionOptions;
  /** NATS_USER/NATS_PASSWORD of `user`, for a process a test starts itself (another replica, the admin CLI). */
  natsLogin(user: NatsUserName): Record<string, string>;
  databaseUrl: string;
  /** The environment every service got (besides its own HEALTH_PORT and NATS_USER/NATS_PASSWORD). */
  env: Record<string, string>;
  /** The private NATS server, for tests that kill or restart the broker. */
  nats: NatsTestServer;
  /** Runs `npm run admin -- ...args` with the same environment and returns its parsed JSON output. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command prints its own shape; tests assert on it
  admin(args: string[]): Promise<any>;
  service(name: ServiceName): ServiceUnderTest;
  /** Stops the services, the NATS server, and drops the database. */
  stop(): Promise<void>;
}

export class AdminCliError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`admin ${args.join(' ')} exited with code ${exitCode}: ${stderr.trim() || stdout.trim()}`);
    this.name = 'AdminCliError';
  }
}

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The lines in which nats-server refused a publish or a subscription ("Publish Violation", "Subscription Violation"). */
export function natsPermissionViolations(log: string): string[] {
  return log.split('\n').filter((line) => / - (Publish|Subscription) Violation - /.test(line));
}

/**
 * Node 22.1 and later keep the compiled code of the modules a process loads in NODE_COMPILE_CACHE, and the next process
 * that loads the same files starts from it: every platform of a test run starts the same services, migrations and
 * admin CLI from the same dist/ and node_modules. Node 20 ignores the variable; one the caller set wins.
 */
function processEnvironment(): NodeJS.ProcessEnv {
  return { NODE_COMPILE_CACHE: join(tmpdir(), 'cpc-node-compile-cache'), ...process.env };
}

/** PLATFORM_TEST_OUTPUT=1 also prints what the services say, prefixed, while the tests run. */
function echo(service: ServiceName): LineListener | undefined {
  return process.env.PLATFORM_TEST_OUTPUT
    ? prefixedLineWriter(`[${service}] `, process.stderr, process.stderr)
    : undefined;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort());
  return [...ports];
}

/** Runs the compiled admin CLI (`npm run admin -- ...args`) and answers its parsed JSON output. */
export function runAdminCli(
  env: NodeJS.ProcessEnv,
  args: string[],
  rootDir: string = repositoryRoot,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--enable-source-maps', adminCliEntryPath(rootDir), ...args],
      { env, cwd: rootDir, timeout: 60000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const code = typeof error.code === 'number' ? error.code : null;
          reject(new AdminCliError(args, code, stdout, stderr));
          return;
        }
        const lines = stdout.trim().split('\n');
        try {
          resolve(JSON.parse(lines[lines.length - 1]));
        } catch {
          reject(new AdminCliError(args, 0, stdout, `printed no JSON object. stderr: ${stderr}`));
        }
      },
    );
  });
}

/**
 * The platform as a user gets it, for end-to-end tests: the compiled services (`npm run build`; `npm test` builds
 * first) as child processes, on a database and a NATS server of their own and on free ports, so test files can run
 * in parallel. Call `stop()` in afterAll.
 */
export async function startPlatformUnderTest(
  options: PlatformUnderTestOptions = {},
): Promise<PlatformUnderTest> {
  const rootDir = options.rootDir ?? repositoryRoot;
  const selected = PLATFORM_SERVICES.filter((service) =>
    (options.services ?? PLATFORM_SERVICES).includes(service),
  );
  assertEntriesBuilt(rootDir, selected);

  let database: TestDatabase | undefined;
  let nats: NatsTestServer | undefined;
  const services = new Map<ServiceName, ServiceProcess>();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...services.values()].map((service) => service.stop()));
    const violations = natsPermissionViolations(nats?.log() ?? '');
    await nats?.stop();
    await database?.drop();
    // Every test on the platform doubles as a check that the services' NATS permissions (NATS_USERS) suffice.
    if (violations.length > 0) {
      throw new Error(`nats-server refused the services:\n  ${violations.join('\n  ')}`);
    }
  };

  try {
    nats = await startNatsTestServer({ authorization: true });
    const natsServer = nats;
    const [apiPort, ocppPort, ...healthPorts] = await distinctFreePorts(2 + selected.length);
    const environment = (databaseUrl: string): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      NATS_URL: natsServer.url,
      API_PORT: String(apiPort),
      OCPP_PORT: String(ocppPort),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Password hashes at scrypt N = 2^12 instead of the production 2^17 (128 MiB and a few hundred ms a check): the
      // tests create and log in many accounts and charge points on a shared machine; the hashers' own specs cover the
      // production cost.
      SCRYPT_COST_LOG2: '12',
      OCPP_PASSWORD_SCRYPT_LOG2_N: '12',
      ...options.env,
    });

    // The migrations run once per Jest run and set of services, on a template that each platform's database copies.
    const migrating = selected.filter((name) => SERVICES_WITH_MIGRATIONS.includes(name));
    const migrate = async (databaseUrl: string): Promise<void> => {
      for (const service of migrating) {
        await runMigrations({
          rootDir,
          service,
          env: {
            ...processEnvironment(),
            ...environment(databaseUrl),
            ...natsServer.clientEnvironment(service),
          },
          onLine: echo(service),
        });
      }
    };
    database =
      migrating.length > 0
        ? await createPreparedTestDatabase(`migrated\n${rootDir}\n${migrating.join(' ')}`, migrate)
        : await createTestDatabase();
    const env = environment(database.url);
    const childEnv = { ...processEnvironment(), ...env };

    selected.forEach((service, index) => {
      const child = new ServiceProcess({
        rootDir,
        service,
        env: {
          ...childEnv,
          ...natsServer.clientEnvironment(service),
          HEALTH_PORT: String(healthPorts[index]),
        },
        onLine: echo(service),
        readyTimeoutMs: options.readyTimeoutMs ?? 150_000,
      });
      services.set(service, child);
    });
    await Promise.all([...services.values()].map((service) => service.start()));

    return {
      apiUrl: `http://127.0.0.1:${env.API_PORT}`,
      ocppUrl: `ws://127.0.0.1:${env.OCPP_PORT}`,
      natsUrl: natsServer.url,
      natsTestClientOptions: nats.testClientOptions(),
      natsLogin: (user) => natsServer.clientEnvironment(user),
      databaseUrl: database.url,
      env,
      nats: natsServer,
      // The admin CLI runs beside auth-service and logs in as it.
      admin: (args) =>
        runAdminCli({ ...childEnv, ...natsServer.clientEnvironment('auth-service') }, args, rootDir),
      service: (name) => {
        const child = services.get(name);
        if (!child)
          throw new Error(
            `${name} is not part of this platform (services: ${selected.join(', ') || 'none'})`,
          );
        return {
          kill: () => child.kill(),
          stop: () => child.stop(),
          restart: () => child.restart(),
          output: () => child.output(),
          healthPort: healthPorts[selected.indexOf(name)],
          readyUrl: child.readyUrl,
          pid: () => child.process.pid,
        };
      },
      stop,
    };
  } catch (error) {
    await Promise.all([...services.values()].map((service) => service.kill()));
    await stop();
    throw error;
  }
}
