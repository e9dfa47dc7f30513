import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import {
  configuredNatsLogin,
  type OutputStream,
  Platform,
  type PlatformOptions,
} from '@cpc/platform-launcher';
import {
  createTestDatabase,
  findFreePort,
  type NatsTestServer,
  startNatsTestServer,
  type TestDatabase,
} from '@cpc/testing';
// The stand-in dist/ of the harness tests; libs/testing does not export it because only tests of launchers need it.
import { writeFakePlatformBuild } from '../../libs/testing/src/fake-platform-build.js';

describe('Platform (npm start) with stand-in services', () => {
  let rootDir: string;
  let database: TestDatabase;
  let nats: NatsTestServer;
  const log: string[] = [];
  const lines: Array<[string, string, OutputStream]> = [];

  beforeAll(async () => {
    rootDir = writeFakePlatformBuild();
    database = await createTestDatabase();
    nats = await startNatsTestServer();
  });
  beforeEach(() => {
    log.length = 0;
    lines.length = 0;
  });
  afterAll(async () => {
    await nats?.stop();
    await database?.drop();
    rmSync(rootDir, { recursive: true, force: true });
  });

  async function options(env: Record<string, string>): Promise<PlatformOptions> {
    return {
      rootDir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        NATS_URL: nats.url,
        API_PORT: String(await findFreePort()),
        FAKE_JOURNAL: join(rootDir, 'journal'),
        AUTH_SERVICE_HEALTH_PORT: String(await findFreePort()),
        ASSETS_SERVICE_HEALTH_PORT: String(await findFreePort()),
        COMMAND_SERVICE_HEALTH_PORT: String(await findFreePort()),
        WEBHOOK_SERVICE_HEALTH_PORT: String(await findFreePort()),
        OCPP_GATEWAY_HEALTH_PORT: String(await findFreePort()),
        API_GATEWAY_HEALTH_PORT: String(await findFreePort()),
        ...env,
      },
      log: (line) => log.push(line),
      output: (name) => (line, stream) => lines.push([name, line, stream]),
    };
  }

  it('uses the servers that answer, migrates, starts the six services, and stops them in reverse order', async () => {
    const settings = await options({ OCPP_PORT: '9555' });
    const platform = new Platform(settings);
    const summary = await platform.start();
    try {
      expect(summary).toEqual({
        databaseUrl: database.url,
        natsUrl: nats.url,
        apiPort: Number(settings.env.API_PORT),
        ocppPort: 9555,
      });
      expect(log).toEqual([
        `PostgreSQL answers at ${database.url}`,
        `NATS answers at ${nats.url}`,
        'migrating auth-service',
        'migrating assets-service',
        'migrating command-service',
        'migrating webhook-service',
        'starting auth-service, assets-service, command-service, webhook-service, ocpp-gateway, api-gateway',
      ]);
      expect((await fetch(`http://127.0.0.1:${summary.apiPort}/health/ready`)).status).toBe(200);
      expect(lines).toContainEqual(['ocpp-gateway', 'ocpp-gateway warns: this is a fake', 'stderr']);
      expect(lines).toContainEqual([
        'auth-service',
        `auth-service listening on ${settings.env.AUTH_SERVICE_HEALTH_PORT}`,
        'stdout',
      ]);
    } finally {
      await platform.stop();
    }
    expect(readFileSync(settings.env.FAKE_JOURNAL!, 'utf8')).toBe(
      [
        'migrate auth-service',
        'migrate assets-service',
        'migrate command-service',
        'migrate webhook-service',
        'stop api-gateway',
        'stop ocpp-gateway',
        'stop webhook-service',
        'stop command-service',
        'stop assets-service',
        'stop auth-service',
        '',
      ].join('\n'),
    );
  });

  it('stops the services it started when one of them does not come up', async () => {
    const settings = await options({
      FAKE_CRASH: 'command-service',
      FAKE_JOURNAL: join(rootDir, 'journal-crash'),
    });
    const platform = new Platform(settings);
    await expect(platform.start()).rejects.toThrow(
      'command-service exited with code 1 before it was ready; its last output:\n' +
        'command-service: start-up failed: cannot reach the database',
    );
    await platform.stop();
    const journal = readFileSync(settings.env.FAKE_JOURNAL!, 'utf8');
    // Every service that got as far as listening for SIGTERM was stopped, in the reverse order of starting; on a
    // loaded machine the last ones may not have got that far when command-service crashed.
    const stops = journal.split('\n').filter((line) => line.startsWith('stop '));
    const reverseStartOrder = [
      'stop api-gateway',
      'stop ocpp-gateway',
      'stop webhook-service',
      'stop command-service',
      'stop assets-service',
      'stop auth-service',
    ];
    expect(stops).toEqual(reverseStartOrder.filter((line) => stops.includes(line)));
    expect(stops).toContain('stop auth-service');
  });

  it('refuses a port setting that is not a port before it starts anything', async () => {
    const platform = new Platform(await options({ OCPP_GATEWAY_HEALTH_PORT: '3104x' }));
    await expect(platform.start()).rejects.toThrow(
      'OCPP_GATEWAY_HEALTH_PORT must be a port number from 1 to 65535, not "3104x"',
    );
    expect(log).toEqual([]);
  });

  it('does not try to start a server that is not on this machine', async () => {
    const platform = new Platform(await options({ NATS_URL: 'nats://nats.example.invalid:4222' }));
    await expect(platform.start()).rejects.toThrow(
      'no NATS answers at nats://nats.example.invalid:4222 (NATS_URL); it is not on this machine, so it cannot be started here',
    );
  });

  it('starts its own nats-server with a user per service, whose passwords it keeps, and logs each service in', async () => {
    const natsStoreDir = join(mkdtempSync(join(tmpdir(), 'cpc-platform-nats-')), 'nats');
    const natsUrl = `nats://127.0.0.1:${await findFreePort()}`;
    const settings = { ...(await options({ NATS_URL: natsUrl })), natsStoreDir };
    const platform = new Platform(settings);
    const summary = await platform.start();
    let firstPasswords: unknown;
    try {
      expect(summary.natsPasswordsFile).toBe(join(natsStoreDir, 'passwords.json'));
      expect(statSync(summary.natsPasswordsFile!).mode & 0o777).toBe(0o600);
      firstPasswords = summary.natsPasswords;
      const health = (await (await fetch(`http://127.0.0.1:${summary.apiPort}/health/ready`)).json()) as {
        env: Record<string, unknown>;
      };
      expect(health.env).toMatchObject({
        NATS_USER: 'api-gateway',
        NATS_PASSWORD_LENGTH: summary.natsPasswords!['api-gateway'].length,
      });
      await expect(connect({ servers: natsUrl, reconnect: false })).rejects.toThrow(/authorization/i);
      const assets = await connect({
        servers: natsUrl,
        user: 'assets-service',
        pass: summary.natsPasswords!['assets-service'],
      });
      await assets.close();
    } finally {
      await platform.stop();
    }
    const again = new Platform({
      ...settings,
      env: { ...settings.env, API_PORT: String(await findFreePort()) },
    });
    try {
      expect((await again.start()).natsPasswords).toEqual(firstPasswords);
    } finally {
      await again.stop();
      rmSync(join(natsStoreDir, '..'), { recursive: true, force: true });
    }
  });
});

describe('configuredNatsLogin (a NATS the launcher did not start)', () => {
  it('logs a service in with its NATS_PASSWORD_<SERVICE> when set, else leaves NATS_USER/NATS_PASSWORD as they are', () => {
    expect(configuredNatsLogin({ NATS_PASSWORD_COMMAND_SERVICE: 'p-command' }, 'command-service')).toEqual({
      NATS_USER: 'command-service',
      NATS_PASSWORD: 'p-command',
    });
    expect(configuredNatsLogin({ NATS_PASSWORD_COMMAND_SERVICE: 'p-command' }, 'api-gateway')).toEqual({});
  });
});
