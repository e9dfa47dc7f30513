/* global process */
/**
 * Jest globalTeardown: drops the template databases of this run (the test kit's createPreparedTestDatabase names them
 * `cpc_tpl_<CPC_TEST_RUN_ID>_...`), then stops what jest-global-setup.mjs started.
 */
import pg from 'pg';

async function dropRunTemplates(runId) {
  if (!runId || !/^[a-z0-9]+$/.test(runId)) return;
  const client = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  try {
    await client.connect();
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [
      `cpc_tpl_${runId}_`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } catch (error) {
    process.stderr.write(`\ncould not drop the template databases of run ${runId}: ${error.message}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function globalTeardown() {
  await dropRunTemplates(process.env.CPC_TEST_RUN_ID);
  await globalThis.cpcTestInfrastructure?.stop();
}
