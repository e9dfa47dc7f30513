import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  createPreparedTestDatabase,
  type TestDatabase,
  templateDatabasePrefix,
  TEST_RUN_ID_VARIABLE,
  testDatabaseServerUrl,
} from './test-database.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const databasesNamed = async (prefix: string): Promise<string[]> =>
  (
    await query<{ datname: string }>(
      testDatabaseServerUrl(),
      `SELECT datname FROM pg_database WHERE starts_with(datname, '${prefix}') ORDER BY datname`,
    )
  ).map((row) => row.datname);

/** A table with one row saying which preparation made it. */
const prepareAs = (label: string, journal: string[]) => async (url: string) => {
  journal.push(label);
  await query(url, `CREATE TABLE prepared (label text); INSERT INTO prepared VALUES ('${label}')`);
};

const labelIn = async (database: TestDatabase): Promise<string[]> =>
  (await query<{ label: string }>(database.url, 'SELECT label FROM prepared')).map((row) => row.label);

describe('createPreparedTestDatabase', () => {
  const originalRunId = process.env[TEST_RUN_ID_VARIABLE];
  // A run of its own, so this spec's templates are its own and it can drop them at the end.
  const runId = randomBytes(4).toString('hex');
  const databases: TestDatabase[] = [];

  beforeEach(() => {
    process.env[TEST_RUN_ID_VARIABLE] = runId;
  });

  afterAll(async () => {
    process.env[TEST_RUN_ID_VARIABLE] = originalRunId;
    if (originalRunId === undefined) delete process.env[TEST_RUN_ID_VARIABLE];
    await Promise.all(databases.map((database) => database.drop()));
    for (const name of await databasesNamed(templateDatabasePrefix(runId))) {
      await query(testDatabaseServerUrl(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });

  const kept = (database: TestDatabase): TestDatabase => {
    databases.push(database);
    return database;
  };

  it('prepares once per key and gives every caller a database of its own copied from it', async () => {
    const journal: string[] = [];
    const [first, second] = await Promise.all([
      createPreparedTestDatabase('key-a', prepareAs('a1', journal)).then(kept),
      createPreparedTestDatabase('key-a', prepareAs('a2', journal)).then(kept),
    ]);
    const third = kept(await createPreparedTestDatabase('key-a', prepareAs('a3', journal)));
    const other = kept(await createPreparedTestDatabase('key-b', prepareAs('b1', journal)));

    expect(journal).toHaveLength(2);
    expect(journal).toContain('b1');
    const preparedA = journal.find((label) => label.startsWith('a'))!;
    expect(await labelIn(first)).toEqual([preparedA]);
    expect(await labelIn(second)).toEqual([preparedA]);
    expect(await labelIn(third)).toEqual([preparedA]);
    expect(await labelIn(other)).toEqual(['b1']);
    expect(new Set([first.name, second.name, third.name, other.name]).size).toBe(4);

    // A copy is private: what one test file writes, another does not see.
    await query(first.url, "INSERT INTO prepared VALUES ('written by the first')");
    expect(await labelIn(second)).toEqual([preparedA]);
    expect(await databasesNamed(templateDatabasePrefix(runId))).toHaveLength(2);
  });

  it('leaves no template when preparing fails, so the next call prepares again', async () => {
    await expect(
      createPreparedTestDatabase('key-c', () => Promise.reject(new Error('migration failed'))),
    ).rejects.toThrow('migration failed');
    const journal: string[] = [];
    const database = kept(await createPreparedTestDatabase('key-c', prepareAs('c2', journal)));
    expect(journal).toEqual(['c2']);
    expect(await labelIn(database)).toEqual(['c2']);
  });

  it('prepares a fresh database each time outside a Jest run of the workspace', async () => {
    delete process.env[TEST_RUN_ID_VARIABLE];
    const journal: string[] = [];
    const first = kept(await createPreparedTestDatabase('key-d', prepareAs('d1', journal)));
    const second = kept(await createPreparedTestDatabase('key-d', prepareAs('d2', journal)));
    expect(journal).toEqual(['d1', 'd2']);
    expect(await labelIn(first)).toEqual(['d1']);
    expect(await labelIn(second)).toEqual(['d2']);
  });

  it('drops a copy', async () => {
    const database = await createPreparedTestDatabase('key-a', prepareAs('unused', []));
    await database.drop();
    expect(await databasesNamed(database.name)).toEqual([]);
  });
});
