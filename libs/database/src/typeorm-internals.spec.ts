import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { TEST_SERVER_URL } from './testing/test-server.js';

const PINNED_VERSION = '1.1.1';
const workspace = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const installedVersion = (
  JSON.parse(readFileSync(join(workspace, 'node_modules', 'typeorm', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

function broken(what: string, reliedOnBy: string): Error {
  return new Error(
    `typeorm ${installedVersion}: ${what}; ${reliedOnBy} (pool-query.ts) relies on it. ` +
      'See docs/patched-libraries.md before upgrading.',
  );
}

/**
 * What poolQuery and namedQuery take from TypeORM's PostgreSQL driver beyond its documented API
 * (docs/patched-libraries.md), checked on a real DataSource over real PostgreSQL.
 */
describe(`typeorm internals libs/database relies on (pinned ${PINNED_VERSION})`, () => {
  const url = TEST_SERVER_URL;
  let dataSource: DataSource;

  // Real PostgreSQL, as the services have it; nothing is written.
  beforeAll(
    async () => (dataSource = await new DataSource({ type: 'postgres', url, poolSize: 2 }).initialize()),
  );

  afterAll(() => dataSource?.destroy());

  it(`is the version the statements were checked against (${PINNED_VERSION})`, () => {
    if (installedVersion !== PINNED_VERSION) {
      throw new Error(
        `typeorm ${installedVersion} is installed, but pool-query.ts relies on the driver internals of ` +
          `${PINNED_VERSION}: go through docs/patched-libraries.md, then update the pin there, in package.json and here.`,
      );
    }
  });

  it("driver.master is the DataSource's pg Pool", async () => {
    const master = (dataSource.driver as unknown as { master?: unknown }).master;
    if (!(master instanceof pg.Pool)) throw broken('driver.master is no longer a pg Pool', 'poolQuery');
    const { rows } = await master.query<{ answer: number }>({
      text: 'SELECT $1::int AS answer',
      values: [42],
    });
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it("a transaction's queryRunner.connect() answers with the pg client the transaction runs on", async () => {
    await dataSource.transaction(async (manager) => {
      const client = (await manager.queryRunner?.connect()) as unknown;
      if (!(client instanceof pg.Client) || typeof (client as pg.PoolClient).release !== 'function') {
        throw broken("queryRunner.connect() no longer gives the pool's pg client", 'namedQuery');
      }
      const [fromRunner] = await manager.query<{ transaction: string }[]>(
        'SELECT txid_current() AS transaction',
      );
      const fromClient = await client.query<{ transaction: string }>('SELECT txid_current() AS transaction');
      if (fromClient.rows[0]?.transaction !== fromRunner?.transaction) {
        throw broken("queryRunner.connect()'s client is not the transaction's connection", 'namedQuery');
      }
    });
  });
});
