import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcess, runToCompletion } from './managed-process.js';
import { httpReadyCheck, waitForReady } from './readiness.js';

const fakeService = join(import.meta.dirname, 'test-fixtures', 'fake-service.mjs');

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function fake(
  env: Record<string, string>,
  extra: Partial<ConstructorParameters<typeof ManagedProcess>[0]> = {},
) {
  return new ManagedProcess({
    name: 'fake',
    command: process.execPath,
    args: [fakeService],
    env: { PATH: process.env.PATH, FAKE_SERVICE: 'fake', ...env },
    ...extra,
  });
}

describe('ManagedProcess', () => {
  const started: ManagedProcess[] = [];
  let port: number;
  let readyUrl: string;
  beforeEach(async () => {
    port = await freePort();
    readyUrl = `http://127.0.0.1:${port}/health/ready`;
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((child) => child.kill()));
  });
  const launch = (child: ManagedProcess): ManagedProcess => {
    started.push(child);
    child.start();
    return child;
  };

  it('waits for readiness, captures stdout and stderr, and stops with SIGTERM', async () => {
    const child = launch(fake({ HEALTH_PORT: String(port), FAKE_READY_AFTER_MS: '300' }));
    await waitForReady(child, httpReadyCheck(readyUrl), { timeoutMs: 10000, target: readyUrl });
    expect((await fetch(readyUrl)).status).toBe(200);
    expect(child.isRunning).toBe(true);
    expect(await child.stop()).toEqual({ code: 0, signal: null });
    expect(child.isRunning).toBe(false);
    expect(child.output()).toContain(`fake listening on ${port}`);
    expect(child.output()).toContain('fake warns: this is a fake');
  });

  it('sends SIGKILL when the child ignores the stop signal for the grace period', async () => {
    const child = launch(fake({ HEALTH_PORT: String(port), FAKE_IGNORE_SIGTERM: '1' }, { stopGraceMs: 300 }));
    await waitForReady(child, httpReadyCheck(readyUrl), { timeoutMs: 10000, target: readyUrl });
    expect(await child.stop()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.output()).toContain('fake ignores SIGTERM');
  });

  it('kills with SIGKILL and restarts as a new process with the same environment', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'cpc-launcher-')), 'journal');
    const child = launch(fake({ HEALTH_PORT: String(port), FAKE_JOURNAL: journal }));
    await waitForReady(child, httpReadyCheck(readyUrl), { timeoutMs: 10000, target: readyUrl });
    const firstPid = child.pid;
    expect(await child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    child.start();
    await waitForReady(child, httpReadyCheck(readyUrl), { timeoutMs: 10000, target: readyUrl });
    expect(child.pid).not.toBe(firstPid);
    await child.restart();
    await waitForReady(child, httpReadyCheck(readyUrl), { timeoutMs: 10000, target: readyUrl });
    await child.stop();
    // SIGKILL ran no handler; the restart's SIGTERM and the final stop did.
    expect(readFileSync(journal, 'utf8')).toBe('stop fake\nstop fake\n');
    rmSync(join(journal, '..'), { recursive: true, force: true });
  });

  it('reports a command that cannot be started', async () => {
    const child = launch(new ManagedProcess({ name: 'ghost', command: '/nonexistent/ghost' }));
    const exit = await child.waitForExit();
    expect(exit.error?.message).toContain('ENOENT');
  });
});

describe('waitForReady', () => {
  let child: ManagedProcess | undefined;
  afterEach(async () => {
    await child?.kill();
  });

  it('fails after the timeout naming the target, what it answered and the last lines the child printed', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/health/ready`;
    child = fake({ HEALTH_PORT: String(port), FAKE_READY_AFTER_MS: '60000' });
    child.start();
    const failure = waitForReady(child, httpReadyCheck(url), { timeoutMs: 1000, target: `GET ${url}` });
    await expect(failure).rejects.toThrow(
      `fake was not ready within 1000 ms (GET ${url}: 503 {"status":"starting"`,
    );
    await expect(failure).rejects.toThrow(/its last output:\n(.*\n)*fake warns: this is a fake/);
  });

  it('fails at once when the child exits before it is ready, with its stderr', async () => {
    child = fake({ HEALTH_PORT: '1', FAKE_CRASH: 'fake' });
    child.start();
    const started = Date.now();
    await expect(
      waitForReady(child, httpReadyCheck('http://127.0.0.1:1/health/ready'), {
        timeoutMs: 20000,
        target: 'x',
      }),
    ).rejects.toThrow(
      'fake exited with code 1 before it was ready; its last output:\nfake: start-up failed: cannot reach the database',
    );
    expect(Date.now() - started).toBeLessThan(10000);
  });
});

describe('runToCompletion', () => {
  const migrate = (env: Record<string, string>) => ({
    name: 'fake migrate',
    command: process.execPath,
    args: [fakeService],
    env: { FAKE_SERVICE: 'fake', FAKE_MODE: 'migrate', ...env },
  });

  it('resolves when the command exits 0', async () => {
    const child = await runToCompletion(migrate({}));
    expect(child.output()).toBe('{"service":"fake","migrationsApplied":[]}');
  });

  it('rejects with the exit code and the output when it fails', async () => {
    await expect(runToCompletion(migrate({ FAKE_MIGRATE_FAIL: 'fake' }))).rejects.toThrow(
      'fake migrate exited with code 1; its last output:\nfake: relation "x" already exists',
    );
  });

  it('kills a command that runs past the timeout', async () => {
    const spec = { name: 'sleeper', command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'] };
    await expect(runToCompletion(spec, 300)).rejects.toThrow(
      'sleeper was ended by SIGKILL; its last output:\n[launcher] sleeper did not finish within 300 ms; killing it',
    );
  });
});
