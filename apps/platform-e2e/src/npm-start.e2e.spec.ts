import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ManagedProcess, natsServerPasswordEnvironment, waitForReady } from '@cpc/platform-launcher';
import {
  ApiTestClient,
  AssetsTestData,
  findFreePort,
  natsPermissionViolations,
  type NatsTestServer,
  OCPP_PASSWORD,
  ocppChargePoint,
  runAdminCli,
  startNatsTestServer,
  testDatabaseServerUrl,
} from '@cpc/testing';
import { jest } from '@jest/globals';
import pg from 'pg';

jest.setTimeout(180_000);

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const PASSWORD = 'change-me-now';

/** Pids of the processes whose parent is `pid` (Linux /proc; CI and the test machines are Linux). */
function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // Fields after the command name, which is in parentheses and may itself hold spaces.
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid ? [Number(entry)] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portAnswers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * `npm start` as a user runs it (after `npm run build`): dist/tools/platform/start-platform.js with a database that
 * does not exist yet, a NATS server and free ports; then the first tenant through the admin CLI, a token, a protected
 * route, a charge point, and Ctrl-C, after which nothing it started may still run.
 */
describe('npm start: the whole platform from the launcher', () => {
  let nats: NatsTestServer;
  let launcher: ManagedProcess;
  let databaseUrl: string;
  let databaseName: string;
  const ports: Record<string, number> = {};

  const withServer = async (sql: string) => {
    const client = new pg.Client({ connectionString: testDatabaseServerUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // With the platform's NATS users, as docker-compose.yml runs it: npm start logs each service in with its
    // NATS_PASSWORD_<SERVICE>, and stopping fails when nats-server refused anything.
    nats = await startNatsTestServer({ authorization: true });
    databaseName = `cpc_npm_start_${randomBytes(6).toString('hex')}`;
    const url = new URL(testDatabaseServerUrl());
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    for (const variable of [
      'API_PORT',
      'OCPP_PORT',
      'AUTH_SERVICE_HEALTH_PORT',
      'ASSETS_SERVICE_HEALTH_PORT',
      'COMMAND_SERVICE_HEALTH_PORT',
      'WEBHOOK_SERVICE_HEALTH_PORT',
      'OCPP_GATEWAY_HEALTH_PORT',
      'API_GATEWAY_HEALTH_PORT',
    ]) {
      let port = await findFreePort();
      while (Object.values(ports).includes(port)) port = await findFreePort();
      ports[variable] = port;
    }
  });

  afterAll(async () => {
    await launcher?.kill();
    const violations = natsPermissionViolations(nats?.log() ?? '');
    await nats?.stop();
    await withServer(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    expect(violations).toEqual([]);
  });

  it('starts, serves a first tenant over HTTP and OCPP, and stops everything on SIGINT', async () => {
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NATS_URL: nats.url,
      ...natsServerPasswordEnvironment(nats.passwords!),
      LOG_LEVEL: 'warn',
      // scrypt at the default cost (128 MiB, secret-hasher.spec.ts) takes 0.7 s on a quiet CI core, and beside the
      // other suites more than the gateway's 5 s request timeout: the first token came back 503. 2^12 as elsewhere.
      SCRYPT_COST_LOG2: '12',
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    };
    launcher = new ManagedProcess({
      name: 'npm start',
      command: process.execPath,
      args: [`${repositoryRoot}dist/tools/platform/start-platform.js`],
      env,
      cwd: repositoryRoot,
      stopSignal: 'SIGINT',
      stopGraceMs: 60_000,
    });
    launcher.start();
    await waitForReady(
      launcher,
      () => {
        const ready = launcher.output().includes('Charging Platform Core is running.');
        return Promise.resolve({ ready, detail: ready ? 'banner printed' : 'no banner yet' });
      },
      { timeoutMs: 150_000, target: 'the banner of npm start', intervalMs: 200 },
    );
    const output = launcher.output();
    expect(output).toContain(`created database ${databaseName}`);
    expect(output).toContain(`HTTP API     http://127.0.0.1:${ports.API_PORT}/api/v1`);
    expect(output).toContain(`OCPP         ws://127.0.0.1:${ports.OCPP_PORT}/ocpp/<tenant>/<identity>`);

    // The first tenant as the banner says, then a token and a protected route.
    const admin = (args: string[]) =>
      runAdminCli({ ...env, ...nats.clientEnvironment('auth-service') }, args);
    await admin(['tenant:create', '--slug', 'acme', '--name', 'Acme Charging']);
    await admin(['role:create', '--tenant', 'acme', '--name', 'admin', '--permissions', '*']);
    await admin([
      ...['user:create', '--tenant', 'acme', '--email', 'admin@acme.example'],
      ...['--password', PASSWORD, '--role', 'admin'],
    ]);
    const api = await ApiTestClient.connect(`http://127.0.0.1:${ports.API_PORT}`);
    const token = await api.call('POST', '/api/v1/oauth/token', {
      body: { username: 'admin@acme.example', password: PASSWORD, tenant: 'acme', context: 'user' },
    });
    expect({ status: token.status, body: token.body }).toMatchObject({ status: 200 });
    const data = new AssetsTestData(api, token.body.access_token);
    const location = await data.location();
    const controller = await data.controller(location.uuid, { ocpp_identity: 'CP-START-1' });
    expect(
      (
        await api.call('GET', `/api/v1/assets/controllers/${controller.uuid}`, {
          token: token.body.access_token,
        })
      ).status,
    ).toBe(200);

    const chargePoint = ocppChargePoint({
      ocppUrl: `ws://127.0.0.1:${ports.OCPP_PORT}`,
      tenantSlug: 'acme',
      identity: 'CP-START-1',
      password: OCPP_PASSWORD,
      protocols: ['ocpp1.6'],
    });
    await chargePoint.connect();
    expect(
      await chargePoint.call('BootNotification', { chargePointVendor: 'ACME', chargePointModel: 'Smoke' }),
    ).toMatchObject({ status: 'Accepted' });
    await chargePoint.close({ force: true });

    // Ctrl-C: the launcher stops what it started and exits 0; no child of it is left, no port still answers.
    const children = childPids(launcher.pid!);
    expect(children).toHaveLength(6);
    const exit = await launcher.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(children.filter(isAlive)).toEqual([]);
    for (const [variable, port] of Object.entries(ports)) {
      expect([variable, await portAnswers(port)]).toEqual([variable, false]);
    }
    expect(launcher.output()).toContain('SIGINT: stopping');
  });
});
