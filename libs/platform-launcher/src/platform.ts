import { join } from 'node:path';
import { natsPasswordVariable } from '@cpc/contracts';
import { ensureDatabaseExists } from '@cpc/database';
import type { LineListener } from './captured-output.js';
import { isLoopbackUrl, startEmbeddedPostgres, startLocalNats } from './local-infrastructure.js';
import { describeExit } from './managed-process.js';
import {
  loadOrCreateNatsPasswords,
  natsClientEnvironment,
  type NatsPasswords,
  writeNatsAuthorizationConfig,
} from './nats-authorization.js';
import {
  assertEntriesBuilt,
  DEFAULT_API_PORT,
  DEFAULT_HEALTH_PORTS,
  DEFAULT_OCPP_PORT,
  PLATFORM_SERVICES,
  runMigrations,
  SERVICES_WITH_MIGRATIONS,
  type ServiceName,
  ServiceProcess,
} from './platform-services.js';
import { natsAnswers, postgresAnswers } from './probes.js';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/cpc';
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

export interface PlatformOptions {
  /** The repository root: `dist/` holds the services, `.data/` what the launcher's own servers store. */
  rootDir: string;
  env: NodeJS.ProcessEnv;
  /** The launcher's own messages. */
  log: (line: string) => void;
  /** Where the output of each child goes (e.g. a prefixed writer). */
  output: (name: string) => LineListener;
  readyTimeoutMs?: number;
  /** Where a NATS server started here stores its streams (default `.data/nats`, kept across runs). */
  natsStoreDir?: string;
  /** A monitoring port for a NATS server started here (the bench reads its message counts); none by default. */
  natsMonitorPort?: number;
}

/** What the platform runs with, once started. */
export interface PlatformSummary {
  databaseUrl: string;
  natsUrl: string;
  apiPort: number;
  ocppPort: number;
  /** Set when the launcher started the server itself. */
  embeddedPostgresDir?: string;
  natsStoreDir?: string;
  /**
   * Set when the launcher started nats-server itself, with the platform's authorization: the file keeping each NATS
   * user's password (in natsStoreDir, created on first start), and the passwords.
   */
  natsPasswordsFile?: string;
  natsPasswords?: NatsPasswords;
}

interface Started {
  name: string;
  stop(): Promise<unknown>;
}

/**
 * The whole platform on one machine: PostgreSQL and NATS (started here when none answers on this machine), the
 * database, migrations, then the six services. `stop()` ends everything it started, in reverse order.
 */
export class Platform {
  private readonly started: Started[] = [];
  private stopping = false;

  constructor(private readonly options: PlatformOptions) {}

  get isStopping(): boolean {
    return this.stopping;
  }

  async start(): Promise<PlatformSummary> {
    const { env, rootDir, log } = this.options;
    assertEntriesBuilt(rootDir, PLATFORM_SERVICES);
    const summary: PlatformSummary = {
      databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
      natsUrl: env.NATS_URL || DEFAULT_NATS_URL,
      apiPort: portFromEnv(env, 'API_PORT', DEFAULT_API_PORT),
      ocppPort: portFromEnv(env, 'OCPP_PORT', DEFAULT_OCPP_PORT),
    };
    // api-gateway answers its health checks on the API port; its HEALTH_PORT serves only GET /metrics.
    const healthPorts = Object.fromEntries(
      PLATFORM_SERVICES.map((service) => [
        service,
        portFromEnv(env, healthPortVariable(service), DEFAULT_HEALTH_PORTS[service]),
      ]),
    ) as Record<ServiceName, number>;

    if (await postgresAnswers(summary.databaseUrl)) {
      log(`PostgreSQL answers at ${redact(summary.databaseUrl)}`);
    } else {
      this.requireLocal('PostgreSQL', summary.databaseUrl, 'DATABASE_URL');
      summary.embeddedPostgresDir = join(rootDir, '.data', 'postgres');
      log(
        `no PostgreSQL answers at ${redact(summary.databaseUrl)}: starting an embedded one (${summary.embeddedPostgresDir})`,
      );
      await this.track('postgres', () =>
        startEmbeddedPostgres({
          url: summary.databaseUrl,
          dataDir: summary.embeddedPostgresDir!,
          onLine: this.options.output('postgres'),
        }),
      );
    }

    if (await natsAnswers(summary.natsUrl)) {
      log(`NATS answers at ${summary.natsUrl}`);
    } else {
      this.requireLocal('NATS', summary.natsUrl, 'NATS_URL');
      summary.natsStoreDir = this.options.natsStoreDir ?? join(rootDir, '.data', 'nats');
      summary.natsPasswordsFile = join(summary.natsStoreDir, 'passwords.json');
      summary.natsPasswords = loadOrCreateNatsPasswords(summary.natsPasswordsFile);
      log(
        `no NATS answers at ${summary.natsUrl}: starting nats-server with JetStream and a user per service (${summary.natsStoreDir})`,
      );
      const authorization = {
        configFile: writeNatsAuthorizationConfig(summary.natsStoreDir),
        passwords: summary.natsPasswords,
      };
      await this.track('nats-server', () =>
        startLocalNats({
          url: summary.natsUrl,
          dataDir: summary.natsStoreDir!,
          onLine: this.options.output('nats-server'),
          authorization,
          monitorPort: this.options.natsMonitorPort,
        }),
      );
    }
    const natsLogin = (service: ServiceName): Record<string, string> =>
      summary.natsPasswords
        ? natsClientEnvironment(service, summary.natsPasswords)
        : configuredNatsLogin(env, service);

    this.checkNotStopping();
    if (await ensureDatabaseExists(summary.databaseUrl))
      log(`created database ${new URL(summary.databaseUrl).pathname.slice(1)}`);
    const serviceEnv = { ...env, DATABASE_URL: summary.databaseUrl, NATS_URL: summary.natsUrl };
    for (const service of SERVICES_WITH_MIGRATIONS) {
      this.checkNotStopping();
      log(`migrating ${service}`);
      await runMigrations({
        rootDir,
        service,
        env: { ...serviceEnv, ...natsLogin(service) },
        onLine: this.options.output(service),
      });
    }

    this.checkNotStopping();
    const services = PLATFORM_SERVICES.map((service) => {
      const child = new ServiceProcess({
        rootDir,
        service,
        env: {
          ...serviceEnv,
          ...natsLogin(service),
          HEALTH_PORT: String(healthPorts[service]),
        },
        onLine: this.options.output(service),
        readyTimeoutMs: this.options.readyTimeoutMs,
        detached: true,
      });
      this.started.push({ name: service, stop: () => child.stop() });
      return child;
    });
    log(`starting ${PLATFORM_SERVICES.join(', ')}`);
    await Promise.all(services.map((child) => child.start()));
    for (const child of services) {
      void child.process.waitForExit().then((exit) => {
        if (!this.stopping)
          log(`${child.name} ${describeExit(exit)}; the rest keeps running (its output is above)`);
      });
    }
    return summary;
  }

  /** Stops everything started so far, last started first; safe to call again and during start(). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of this.started.splice(0).reverse()) {
      this.options.log(`stopping ${entry.name}`);
      await entry.stop();
    }
  }

  private async track(name: string, start: () => Promise<{ stop(): Promise<unknown> }>): Promise<void> {
    this.checkNotStopping();
    const pending = start();
    // Registered before it is ready, so a stop during start-up also ends it.
    this.started.push({ name, stop: async () => (await pending.catch(() => undefined))?.stop() });
    await pending;
  }

  private requireLocal(what: string, url: string, variable: string): void {
    if (!isLoopbackUrl(url)) {
      throw new Error(
        `no ${what} answers at ${redact(url)} (${variable}); it is not on this machine, so it cannot be started here`,
      );
    }
  }

  private checkNotStopping(): void {
    if (this.stopping) throw new Error('start-up interrupted');
  }
}

/**
 * A service's login to a NATS server the launcher did not start: `NATS_PASSWORD_<SERVICE>` (the variables
 * docker-compose.yml gives its NATS) as that service's user when set, else NATS_USER/NATS_PASSWORD as they are.
 */
export function configuredNatsLogin(env: NodeJS.ProcessEnv, service: ServiceName): Record<string, string> {
  const password = env[natsPasswordVariable(service)];
  return password ? { NATS_USER: service, NATS_PASSWORD: password } : {};
}

/**
 * Each service's HEALTH_PORT comes from its own variable (`AUTH_SERVICE_HEALTH_PORT`, ...), because one shared
 * HEALTH_PORT cannot serve six processes on one machine.
 */
export function healthPortVariable(service: ServiceName): string {
  return `${service.toUpperCase().replaceAll('-', '_')}_HEALTH_PORT`;
}

function portFromEnv(env: NodeJS.ProcessEnv, variable: string, fallback: number): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new Error(`${variable} must be a port number from 1 to 65535, not "${raw}"`);
  }
  return port;
}

/** A URL without its password, for messages. */
export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
