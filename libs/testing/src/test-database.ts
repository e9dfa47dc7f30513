import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * Base URL of the PostgreSQL server tests use: one on the default port, or, when none answers there, the embedded one
 * that `npm test` starts for the run (tools/first-run/test-infrastructure.ts sets TEST_DATABASE_URL to it).
 */
export function testDatabaseServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Names the templates of one Jest run (set by its globalSetup, tools/first-run/jest-global-setup.mjs). */
export const TEST_RUN_ID_VARIABLE = 'CPC_TEST_RUN_ID';

/** The prefix of the template databases of the run `runId`; the run's globalTeardown drops them. */
export function templateDatabasePrefix(runId: string): string {
  return `cpc_tpl_${runId}_`;
}

async function withMaintenanceClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseServerUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(testDatabaseServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function createDatabase(createStatement: (name: string) => string): Promise<TestDatabase> {
  const name = `cpc_test_${randomBytes(6).toString('hex')}`;
  await withMaintenanceClient((client) => client.query(createStatement(name)));
  return {
    url: databaseUrl(name),
    name,
    drop: () =>
      withMaintenanceClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/** A new, empty database on the real PostgreSQL server, private to one test file. */
export function createTestDatabase(): Promise<TestDatabase> {
  return createDatabase((name) => `CREATE DATABASE "${name}"`);
}

/**
 * A new database private to one test file, as `prepare` leaves a fresh one (e.g. migrated): `prepare` runs once per
 * Jest run and `key`, on a template database, and every later call copies that template (CREATE DATABASE ...
 * TEMPLATE, a fraction of a second) instead of preparing again. Parallel workers wait for the one preparing (an
 * advisory lock); a template is named only once it is complete. Outside a Jest run of this workspace (no
 * CPC_TEST_RUN_ID) it prepares a fresh database each time.
 */
export async function createPreparedTestDatabase(
  key: string,
  prepare: (url: string) => Promise<void>,
): Promise<TestDatabase> {
  const runId = process.env[TEST_RUN_ID_VARIABLE];
  if (!runId || !/^[a-z0-9]+$/.test(runId)) {
    const database = await createTestDatabase();
    try {
      await prepare(database.url);
    } catch (error) {
      await database.drop();
      throw error;
    }
    return database;
  }
  const digest = createHash('sha256').update(`${runId}\n${key}`).digest();
  const template = `${templateDatabasePrefix(runId)}${digest.subarray(0, 6).toString('hex')}`;
  await withMaintenanceClient(async (client) => {
    const lock = digest.readBigInt64BE(0).toString();
    await client.query('SELECT pg_advisory_lock($1::bigint)', [lock]);
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (found.rowCount === 1) return;
      const building = `${template}_building`;
      await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${building}"`);
      try {
        await prepare(databaseUrl(building));
      } catch (error) {
        await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        throw error;
      }
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [lock]);
    }
  });
  return createDatabase((name) => `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
}
