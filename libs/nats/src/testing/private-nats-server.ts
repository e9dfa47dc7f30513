import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateNatsServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * A private nats-server with JetStream on a port of its choosing. Not @cpc/testing's startNatsTestServer: libs/testing
 * (through libs/platform-launcher and libs/database) depends on this library, and a cycle is not allowed.
 */
export async function startNatsServer(): Promise<PrivateNatsServer> {
  const storeDir = mkdtempSync(join(tmpdir(), 'cpc-nats-lib-'));
  const server: ChildProcess = spawn(
    process.env.NATS_SERVER_BIN ?? 'nats-server',
    ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', storeDir],
    { env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/local/sbin` } },
  );
  let log = '';
  const port = await new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.once('exit', () => reject(new Error(`nats-server exited before listening:\n${log}`)));
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const listening = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log);
      if (listening) resolve(listening[1]);
    });
  });
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = once(server, 'exit');
        server.kill('SIGKILL');
        await exited;
      }
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
