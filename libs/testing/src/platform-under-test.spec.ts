import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { natsAnswers } from '@cpc/platform-launcher';
import { writeFakePlatformBuild } from './fake-platform-build.js';
import { AdminCliError, type PlatformUnderTest, startPlatformUnderTest } from './platform-under-test.js';

async function databaseExists(databaseUrl: string): Promise<boolean> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      new URL(databaseUrl).pathname.slice(1),
    ]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

const readyStatus = async (url: string): Promise<number | string> =>
  fetch(`${url}/health/ready`).then(
    (response) => response.status,
    (error: { cause?: { code?: string } }) => error.cause?.code ?? 'failed',
  );

describe('startPlatformUnderTest without services', () => {
  it('gives a fresh database and a private NATS server, and removes both on stop', async () => {
    const platform = await startPlatformUnderTest({ services: [] });
    expect(await databaseExists(platform.databaseUrl)).toBe(true);
    expect(await natsAnswers(platform.natsUrl)).toBe(true);
    expect(platform.env).toMatchObject({
      DATABASE_URL: platform.databaseUrl,
      NATS_URL: platform.natsUrl,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    });
    expect(() => platform.service('api-gateway')).toThrow(
      'api-gateway is not part of this platform (services: none)',
    );
    await platform.stop();
    await platform.stop();
    expect(await databaseExists(platform.databaseUrl)).toBe(false);
    expect(await natsAnswers(platform.natsUrl)).toBe(false);
  });
});

describe('startPlatformUnderTest with stand-in services', () => {
  let rootDir: string;
  let journal: string;
  let platform: PlatformUnderTest;

  beforeAll(async () => {
    rootDir = writeFakePlatformBuild();
    journal = join(rootDir, 'journal');
    platform = await startPlatformUnderTest({
      rootDir,
      env: { FAKE_JOURNAL: journal, FAKE_READY_AFTER_MS: '500' },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    rmSync(rootDir, { recursive: true, force: true });
  });

  it('migrates the services that own a schema, then starts all six, each ready on its own port', async () => {
    expect(readFileSync(journal, 'utf8')).toBe(
      'migrate auth-service\nmigrate assets-service\nmigrate command-service\nmigrate webhook-service\n',
    );
    expect(platform.apiUrl).toBe(`http://127.0.0.1:${platform.env.API_PORT}`);
    expect(platform.ocppUrl).toBe(`ws://127.0.0.1:${platform.env.OCPP_PORT}`);
    const health = await fetch(`${platform.apiUrl}/health/ready`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      service: 'api-gateway',
      env: { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: platform.databaseUrl },
    });
    for (const service of [
      'auth-service',
      'assets-service',
      'command-service',
      'webhook-service',
      'ocpp-gateway',
    ] as const) {
      expect(platform.service(service).output()).toMatch(new RegExp(`^${service} listening on \\d+$`, 'm'));
    }
  });

  it('runs the admin CLI with the same environment and parses its JSON', async () => {
    expect(await platform.admin(['tenant:create', '--slug', 'acme'])).toEqual({
      args: ['tenant:create', '--slug', 'acme'],
      databaseUrl: platform.databaseUrl,
    });
  });

  it('rejects with the admin CLI stderr when it exits non-zero', async () => {
    const failure = platform.admin(['fail']);
    await expect(failure).rejects.toThrow('admin fail exited with code 2: admin: tenant "x" already exists');
    await expect(failure).rejects.toBeInstanceOf(AdminCliError);
  });

  it('kills a service and restarts it', async () => {
    const port = /listening on (\d+)/.exec(platform.service('command-service').output())![1];
    const url = `http://127.0.0.1:${port}`;
    expect(await readyStatus(url)).toBe(200);
    await platform.service('command-service').kill();
    expect(await readyStatus(url)).toBe('ECONNREFUSED');
    await platform.service('command-service').restart();
    expect(await readyStatus(url)).toBe(200);
    expect(readFileSync(journal, 'utf8')).not.toContain('stop command-service');
  });

  it('stops a service with SIGTERM', async () => {
    await platform.service('ocpp-gateway').stop();
    expect(readFileSync(journal, 'utf8')).toContain('stop ocpp-gateway\n');
  });
});

describe('startPlatformUnderTest failures', () => {
  it('says which entries are not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cpc-empty-'));
    try {
      await expect(startPlatformUnderTest({ rootDir: empty, services: ['ocpp-gateway'] })).rejects.toThrow(
        `not built yet (run \`npm run build\`):\n  ${empty}/dist/apps/ocpp-gateway/src/main.js`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('fails with the output of a service that does not come up, and cleans up', async () => {
    const rootDir = writeFakePlatformBuild();
    try {
      await expect(
        startPlatformUnderTest({
          rootDir,
          services: ['auth-service', 'api-gateway'],
          env: { FAKE_CRASH: 'auth-service' },
        }),
      ).rejects.toThrow(
        'auth-service exited with code 1 before it was ready; its last output:\n' +
          'auth-service: start-up failed: cannot reach the database',
      );
    } finally {
      rmSync(rootDir, { recursive: true, force: true });
    }
  });
});
