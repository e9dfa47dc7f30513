import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NatsUserName, natsPasswordVariable } from '@cpc/contracts';
import type { NodeConnectionOptions } from '@nats-io/transport-node';
import {
  findFreePort,
  generateNatsPassword,
  generateNatsPasswords,
  type NatsPasswords,
  natsClientEnvironment,
  natsServerPasswordEnvironment,
  writeNatsAuthorizationConfig,
} from '@cpc/platform-launcher';

export interface NatsTestServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL) and keeps its JetStream store, for restart tests. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** With `authorization`: each user's password, and NATS_USER/NATS_PASSWORD for a process logging in as `user`. */
  passwords?: NatsPasswords;
  clientEnvironment(user: NatsUserName): Record<string, string>;
  /** What the server logged so far (with `authorization`; empty otherwise), e.g. its "Permissions Violation" lines. */
  log(): string;
  /**
   * Options for a test's own connection: with `authorization`, as NATS_TEST_USER, a test-only user without
   * restrictions (tests stand in for several services at once; the services themselves log in as their own users).
   */
  testClientOptions(): NodeConnectionOptions;
}

/** The unrestricted user of an authorizing NatsTestServer, for the tests' own connections. */
export const NATS_TEST_USER = 'platform-test';

export interface NatsTestServerOptions {
  /**
   * Run with the platform's generated authorization (one user per service, NATS_USERS) and fresh passwords, as
   * `npm start` and the deployments do; without it, anyone may do anything.
   */
  authorization?: boolean;
}

function natsServerBinary(): string {
  if (process.env.NATS_SERVER_BIN) return process.env.NATS_SERVER_BIN;
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (existsSync(candidate)) return candidate;
  }
  return 'nats-server';
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A real nats-server with JetStream, private to one test file: its own port and store, so test files run in
 * parallel without seeing each other's subjects, streams or consumers.
 */
export async function startNatsTestServer(options: NatsTestServerOptions = {}): Promise<NatsTestServer> {
  const port = await findFreePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'cpc-nats-'));
  const passwords = options.authorization ? generateNatsPasswords() : undefined;
  const testUserPassword = generateNatsPassword();
  const configArgs = passwords ? ['-c', writeNatsAuthorizationConfig(storeDir, [NATS_TEST_USER])] : [];
  const logged: string[] = [];
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = [...configArgs, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
    child = spawn(natsServerBinary(), args, {
      stdio: passwords ? ['ignore', 'ignore', 'pipe'] : 'ignore',
      env: passwords
        ? {
            ...process.env,
            ...natsServerPasswordEnvironment(passwords),
            [natsPasswordVariable(NATS_TEST_USER)]: testUserPassword,
          }
        : process.env,
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => logged.push(chunk));
    child.on('error', (error) => {
      throw new Error(
        `cannot start nats-server (${error.message}); install it with: apt-get install nats-server`,
      );
    });
    await waitForPort(port, 10000);
  };
  const terminate = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill(signal);
    });
  };

  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    passwords,
    clientEnvironment: (user) => {
      if (!passwords) throw new Error('this nats-server runs without authorization');
      return natsClientEnvironment(user, passwords);
    },
    log: () => logged.join(''),
    testClientOptions: () => ({
      servers: `nats://127.0.0.1:${port}`,
      ...(passwords ? { user: NATS_TEST_USER, pass: testUserPassword } : {}),
    }),
    kill: () => terminate('SIGKILL'),
    restart: launch,
    stop: async () => {
      await terminate('SIGTERM');
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
