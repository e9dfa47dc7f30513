import { randomBytes } from 'node:crypto';
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

async function withMaintenanceClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseServerUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the real PostgreSQL server, private to one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `cpc_test_${randomBytes(6).toString('hex')}`;
  await withMaintenanceClient((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(testDatabaseServerUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withMaintenanceClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
