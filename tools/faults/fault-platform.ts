import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDatabaseExists } from '@cpc/database';
import {
  adminCliEntryPath,
  generateNatsPasswords,
  natsClientEnvironment,
  type NatsPasswords,
  writeNatsAuthorizationConfig,
  assertEntriesBuilt,
  describeExit,
  type LineListener,
  type ManagedProcess,
  natsAnswers,
  PLATFORM_SERVICES,
  postgresLoginCheck,
  probeReadyCheck,
  runMigrations,
  runToCompletion,
  SERVICES_WITH_MIGRATIONS,
  type ServiceName,
  ServiceProcess,
  startEmbeddedPostgres,
  startLocalNats,
  waitForReady,
} from '@cpc/platform-launcher';

/**
 * The processes a fault can hit: the services (ocpp-gateway twice; command-service and webhook-service twice, as
 * deployed: their faults kill the first replica) and the two servers.
 */
export type MemberName =
  | Exclude<ServiceName, 'ocpp-gateway'>
  | 'command-service-b'
  | 'webhook-service-b'
  | 'ocpp-gateway-a'
  | 'ocpp-gateway-b'
  | 'nats'
  | 'postgres';

export interface FaultPlatformOptions {
  rootDir: string;
  callTimeoutMs: number;
  log: (line: string) => void;
}

interface Member {
  name: MemberName;
  process: ManagedProcess;
  /** Starts it again after a kill and waits until it is ready. */
  start(): Promise<void>;
  /** Set while the harness itself keeps it down: an exit then is no surprise. */
  heldDown: boolean;
}

/** The run's webhook receiver listens on http://127.0.0.1; a request it leaves hanging times out soon. */
const WEBHOOK_SERVICE_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8',
  WEBHOOK_RESPONSE_TIMEOUT_MS: '1000',
};

/** Starting a service takes 10 s on an idle 2-core machine and several times that on a busy one. */
const SERVICE_READY_TIMEOUT_MS = 180_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The whole platform from `dist/`, each service its own process, on a PostgreSQL and a NATS server of its own (in a
 * fresh work directory, on free ports), so that any of them can be killed and started again without touching the
 * servers other tests use. ocpp-gateway runs as two instances. A process that dies without being killed here is
 * started again, as an orchestrator would, and reported.
 */
export class FaultPlatform {
  readonly workDir: string;
  readonly unexpectedExits: { name: string; at: number; how: string }[] = [];
  apiUrl = '';
  ocppPorts: number[] = [];
  private readonly members = new Map<MemberName, Member>();
  private readonly logs: WriteStream[] = [];
  private childEnv: NodeJS.ProcessEnv = {};
  private natsPasswords: NatsPasswords | undefined;
  private stopping = false;

  constructor(private readonly options: FaultPlatformOptions) {
    this.workDir = mkdtempSync(join(tmpdir(), 'cpc-faults-'));
    // PostgreSQL runs as the user `postgres` when this runs as root: it must reach its data directory below.
    chmodSync(this.workDir, 0o755);
    mkdirSync(join(this.workDir, 'logs'));
  }

  async start(): Promise<void> {
    const { rootDir, log } = this.options;
    assertEntriesBuilt(rootDir, PLATFORM_SERVICES);
    const [postgresPort, natsPort, apiPort, ocppA, ocppB, ...healthPorts] = await this.distinctFreePorts(14);
    const databaseUrl = `postgres://postgres@127.0.0.1:${postgresPort}/cpc_faults`;
    const natsUrl = `nats://127.0.0.1:${natsPort}`;
    this.apiUrl = `http://127.0.0.1:${apiPort}`;
    this.ocppPorts = [ocppA, ocppB];

    log(`work directory ${this.workDir} (logs in logs/)`);
    log(`starting PostgreSQL on ${postgresPort} and nats-server on ${natsPort}`);
    const postgres = await startEmbeddedPostgres({
      url: databaseUrl,
      dataDir: join(this.workDir, 'postgres'),
      onLine: this.logTo('postgres'),
    });
    this.addMember('postgres', postgres, postgresLoginCheck(databaseUrl), 60_000);
    // The broker as deployed: a user per service with its own permissions (a violation shows in logs/nats.log).
    this.natsPasswords = generateNatsPasswords();
    const nats = await startLocalNats({
      url: natsUrl,
      dataDir: join(this.workDir, 'nats'),
      onLine: this.logTo('nats'),
      authorization: {
        configFile: writeNatsAuthorizationConfig(join(this.workDir, 'nats')),
        passwords: this.natsPasswords,
      },
    });
    this.addMember(
      'nats',
      nats,
      probeReadyCheck(() => natsAnswers(natsUrl), 'NATS'),
      15_000,
    );

    await ensureDatabaseExists(databaseUrl);
    this.childEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      API_PORT: String(apiPort),
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      OCPP_CALL_TIMEOUT_MS: String(this.options.callTimeoutMs),
      // The harness is one API subject posting thousands of commands, and its charge points knock during outages.
      API_RATE_LIMIT_PER_SUBJECT: '100000000',
      TOKEN_RATE_LIMIT_PER_ADDRESS: '100000',
      TOKEN_FAILURE_LIMIT_PER_ACCOUNT_ADDRESS: '100000',
      TOKEN_FAILURE_LIMIT_PER_ACCOUNT: '100000',
      OCPP_HANDSHAKE_MAX_FAILURES: '100000',
      // Every charge point reaches the gateways through the one balancer address.
      OCPP_MAX_CONCURRENT_HANDSHAKES_PER_ADDRESS: '100000',
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      // A dead instance is found, and its presence entries swept, within seconds, not a minute.
      OCPP_PRESENCE_TTL_MS: '6000',
    };
    for (const service of SERVICES_WITH_MIGRATIONS) {
      log(`migrating ${service}`);
      await runMigrations({ rootDir, service, env: this.childEnv, onLine: this.logTo(service) });
    }

    const services: [MemberName, ServiceName, NodeJS.ProcessEnv][] = [
      ['auth-service', 'auth-service', {}],
      ['assets-service', 'assets-service', {}],
      ['command-service', 'command-service', {}],
      // A second replica: commands are claimed, and status events relayed, by both side by side, as in production.
      ['command-service-b', 'command-service', {}],
      ['ocpp-gateway-a', 'ocpp-gateway', { OCPP_PORT: String(ocppA), OCPP_GATEWAY_INSTANCE_ID: 'faults-a' }],
      ['ocpp-gateway-b', 'ocpp-gateway', { OCPP_PORT: String(ocppB), OCPP_GATEWAY_INSTANCE_ID: 'faults-b' }],
      ['api-gateway', 'api-gateway', {}],
      ['webhook-service', 'webhook-service', WEBHOOK_SERVICE_ENV],
      ['webhook-service-b', 'webhook-service', WEBHOOK_SERVICE_ENV],
    ];
    log(`starting ${services.map(([name]) => name).join(', ')}`);
    await Promise.all(
      services.map(async ([name, service, env], index) => {
        const child = new ServiceProcess({
          rootDir,
          service,
          env: {
            ...this.childEnv,
            ...natsClientEnvironment(service, this.natsPasswords!),
            HEALTH_PORT: String(healthPorts[index]),
            ...env,
          },
          onLine: this.logTo(name),
          readyTimeoutMs: SERVICE_READY_TIMEOUT_MS,
        });
        this.members.set(name, {
          name,
          process: child.process,
          heldDown: false,
          start: async () => {
            child.process.start();
            this.watch(name);
            await child.waitUntilReady();
          },
        });
        await this.members.get(name)!.start();
      }),
    );
  }

  /** Runs the admin CLI with the platform's environment; resolves with the JSON object it printed last. */
  async admin(args: string[]): Promise<unknown> {
    const child = await runToCompletion({
      name: `admin ${args[0]}`,
      command: process.execPath,
      args: [adminCliEntryPath(this.options.rootDir), ...args],
      env: { ...this.childEnv, ...natsClientEnvironment('auth-service', this.natsPasswords!) },
      cwd: this.options.rootDir,
    });
    const lines = child.output().trim().split('\n');
    return JSON.parse(lines[lines.length - 1]) as unknown;
  }

  /** SIGKILL, as a crash: no shutdown hooks, no goodbyes to clients. */
  async kill(name: MemberName): Promise<void> {
    const member = this.member(name);
    member.heldDown = true;
    await member.process.kill();
  }

  /** Starts a killed member again and resolves once it is ready. */
  async restart(name: MemberName): Promise<void> {
    const member = this.member(name);
    member.heldDown = false;
    await member.start();
  }

  /**
   * SIGTERM to the services (together), then NATS, then PostgreSQL. Resolves with the services that did not shut
   * down cleanly (exit code 0, or ended by the SIGTERM) — not part of the verdict, but a crash on shutdown is a bug worth seeing.
   */
  async stop(): Promise<string[]> {
    this.stopping = true;
    const order: MemberName[] = [
      'api-gateway',
      'ocpp-gateway-a',
      'ocpp-gateway-b',
      'command-service',
      'command-service-b',
      'webhook-service',
      'webhook-service-b',
      'assets-service',
      'auth-service',
    ];
    const unclean = await Promise.all(
      order.map(async (name) => {
        const member = this.members.get(name);
        if (!member?.process.isRunning) return [];
        const exit = await member.process.stop();
        // Ending by the signal itself is how some services finish their shutdown; a crash exits with a code.
        const clean = exit?.code === 0 || exit?.signal === 'SIGTERM';
        return clean ? [] : [`${name} ${exit ? describeExit(exit) : 'did not stop'} on SIGTERM`];
      }),
    );
    await this.members.get('nats')?.process.stop();
    await this.members.get('postgres')?.process.stop();
    await Promise.all(this.logs.map((stream) => new Promise((resolve) => stream.end(resolve))));
    return unclean.flat();
  }

  removeWorkDir(): void {
    rmSync(this.workDir, { recursive: true, force: true });
  }

  private addMember(
    name: MemberName,
    process: ManagedProcess,
    check: Parameters<typeof waitForReady>[1],
    timeoutMs: number,
  ): void {
    this.members.set(name, {
      name,
      process,
      heldDown: false,
      start: async () => {
        process.start();
        this.watch(name);
        await waitForReady(process, check, { timeoutMs, target: name });
      },
    });
    this.watch(name);
  }

  /** Restarts a member that dies while nobody holds it down, and notes it. */
  private watch(name: MemberName): void {
    const member = this.member(name);
    const run = member.process.waitForExit();
    void run.then(async (exit) => {
      if (this.stopping || member.heldDown) return;
      const how = describeExit(exit);
      this.unexpectedExits.push({ name, at: Date.now(), how });
      this.options.log(`${name} ${how} on its own; starting it again (see logs/${name}.log)`);
      await sleep(1000);
      if (this.stopping || member.heldDown || member.process.isRunning) return;
      await member
        .start()
        .catch((error: unknown) => this.options.log(`${name} did not come back: ${String(error)}`));
    });
  }

  private member(name: MemberName): Member {
    const member = this.members.get(name);
    if (!member) throw new Error(`no process ${name} in this platform`);
    return member;
  }

  private logTo(name: string): LineListener {
    const stream = createWriteStream(join(this.workDir, 'logs', `${name}.log`), { flags: 'a' });
    this.logs.push(stream);
    return (line) => stream.write(`${new Date().toISOString()} ${line}\n`);
  }

  private async distinctFreePorts(count: number): Promise<number[]> {
    const ports = new Set<number>();
    while (ports.size < count) ports.add(await freePort());
    return [...ports];
  }
}
