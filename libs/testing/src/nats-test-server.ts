import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@cpc/platform-launcher';

export interface NatsTestServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL) and keeps its JetStream store, for restart tests. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
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
export async function startNatsTestServer(): Promise<NatsTestServer> {
  const port = await findFreePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'cpc-nats-'));
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    child = spawn(natsServerBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
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
    kill: () => terminate('SIGKILL'),
    restart: launch,
    stop: async () => {
      await terminate('SIGTERM');
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
