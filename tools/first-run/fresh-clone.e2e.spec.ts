import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findFreePort,
  httpReadyCheck,
  ManagedProcess,
  natsAnswers,
  postgresAnswers,
  waitForReady,
} from '@cpc/platform-launcher';
import { jest } from '@jest/globals';

/*
 * SLOW (a minute or two on an idle machine, most of it `npm ci` from the registry or npm's cache, then the TypeScript
 * build; removing the clone's node_modules afterwards takes a while too): `npm start` as the only command typed in a
 * fresh clone, with nothing running. Only the ports are chosen, so it does not collide with anything else on the
 * machine; no PostgreSQL or NATS answers on them, so the launcher starts its own. The limits are generous because a
 * busy machine (helpers sharing two cores) has taken four and a half minutes to the banner.
 */
jest.setTimeout(600_000);

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_PORT_VARIABLES = [
  'API_PORT',
  'OCPP_PORT',
  'AUTH_SERVICE_HEALTH_PORT',
  'ASSETS_SERVICE_HEALTH_PORT',
  'COMMAND_SERVICE_HEALTH_PORT',
  'WEBHOOK_SERVICE_HEALTH_PORT',
  'OCPP_GATEWAY_HEALTH_PORT',
  'API_GATEWAY_HEALTH_PORT',
];

/** What a terminal holds: no npm_* variables of the `npm test` this runs in, and no NODE_ENV=test of Jest. */
function userEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !/^npm_/i.test(entry[0]) && !['INIT_CWD', 'NODE_ENV'].includes(entry[0]),
    ),
  );
}

describe('a fresh clone: npm start is the only command typed', () => {
  let workDir: string;
  let clone: string;
  let launcher: ManagedProcess | undefined;

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'cpc-fresh-clone-'));
    // Run as root, the embedded PostgreSQL runs as the user `postgres`, which must reach the clone's .data/.
    chmodSync(workDir, 0o755);
    clone = join(workDir, 'charging-platform-core');
  });

  afterAll(async () => {
    await launcher?.kill();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('installs the dependencies, builds, starts PostgreSQL, NATS and the services, and stops on Ctrl-C', async () => {
    // The committed HEAD is what a clone gets: work not yet committed is not part of this test.
    const head = execFileSync('git', ['-C', repositoryRoot, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    execFileSync('git', ['clone', '--quiet', repositoryRoot, clone]);
    expect(execFileSync('git', ['-C', clone, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()).toBe(head);
    expect(existsSync(join(clone, 'node_modules'))).toBe(false);

    const ports: number[] = [];
    while (ports.length < SERVICE_PORT_VARIABLES.length + 2) {
      const port = await findFreePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const [postgresPort, natsPort, ...servicePorts] = ports;
    const env: Record<string, string> = {
      ...userEnvironment(),
      ...Object.fromEntries(SERVICE_PORT_VARIABLES.map((variable, i) => [variable, String(servicePorts[i])])),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/cpc`,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      LOG_LEVEL: 'warn',
      // Packages npm's cache already holds are not asked for again (what npm ci gets is the same either way).
      npm_config_prefer_offline: 'true',
    };

    launcher = new ManagedProcess({
      name: 'npm start',
      command: 'npm',
      args: ['start'],
      env,
      cwd: clone,
      // A process group of its own, so the stop below is a terminal's Ctrl-C: SIGINT to npm and all below it.
      detached: true,
      stopSignal: 'SIGINT',
      stopGraceMs: 60_000,
    });
    launcher.start();
    await waitForReady(
      launcher,
      () => {
        const ready = launcher!.output().includes('Charging Platform Core is running.');
        return Promise.resolve({ ready, detail: ready ? 'banner printed' : 'no banner yet' });
      },
      { timeoutMs: 540_000, target: 'the banner of npm start', intervalMs: 500 },
    );
    const output = launcher.output();
    expect(output).toContain(
      'node_modules is missing: installing the dependencies first with npm ci (a minute or so, once)',
    );
    expect(output).toContain('dependencies installed');
    expect(output).toContain(`no PostgreSQL answers at ${env.DATABASE_URL}: starting an embedded one`);
    expect(output).toContain(`no NATS answers at ${env.NATS_URL}: starting nats-server with JetStream`);
    expect(output).toContain(`HTTP API     http://127.0.0.1:${env.API_PORT}/api/v1`);
    const readinessUrls = [
      `http://127.0.0.1:${env.API_PORT}/health/ready`,
      ...['AUTH_SERVICE', 'ASSETS_SERVICE', 'COMMAND_SERVICE', 'WEBHOOK_SERVICE', 'OCPP_GATEWAY'].map(
        (service) => `http://127.0.0.1:${env[`${service}_HEALTH_PORT`]}/health/ready`,
      ),
    ];
    for (const url of readinessUrls) expect([url, (await httpReadyCheck(url)()).ready]).toEqual([url, true]);

    // Ctrl-C: npm start ends, and with it PostgreSQL, NATS and every service. npm itself then ends by the SIGINT it
    // got (as in a terminal), once the launcher, which holds the output pipe, has stopped everything and exited.
    const exit = await launcher.stop();
    expect(exit).toEqual({ code: null, signal: 'SIGINT' });
    expect(launcher.output()).toContain('SIGINT: stopping');
    expect(launcher.output()).toContain('stopping postgres');
    for (const url of readinessUrls) expect([url, (await httpReadyCheck(url)()).ready]).toEqual([url, false]);
    expect(await postgresAnswers(env.DATABASE_URL)).toBe(false);
    expect(await natsAnswers(env.NATS_URL)).toBe(false);

    // What npm ci left is what CI has after its own npm ci: the next command installs nothing.
    expect(
      execFileSync(process.execPath, [join(clone, 'tools', 'first-run', 'ensure-dependencies.mjs')], {
        encoding: 'utf8',
        env: userEnvironment(),
      }),
    ).toBe('');
  });
});
