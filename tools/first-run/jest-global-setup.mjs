/* global process, URL */
/**
 * Jest globalSetup: before the first test file, checks for nats-server and starts an embedded PostgreSQL when none
 * answers at TEST_DATABASE_URL (tools/first-run/test-infrastructure.ts). That module runs from dist/, because Jest
 * loads this file outside its TypeScript transform; `npm test` builds first. A direct `jest` run without a build
 * skips the checks and uses TEST_DATABASE_URL (or 127.0.0.1:5432) as it is. Either way it gives the run an id,
 * CPC_TEST_RUN_ID, for the template databases the test kit makes during the run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';

const built = new URL('../../dist/tools/first-run/test-infrastructure.js', import.meta.url);

export default async function globalSetup() {
  // Names this run's template databases (libs/testing/src/test-database.ts); globalTeardown drops them.
  process.env.CPC_TEST_RUN_ID = randomBytes(4).toString('hex');
  if (!existsSync(built)) {
    process.stdout.write(
      '\ndist/ is not built: not checking for nats-server nor starting an embedded PostgreSQL\n',
    );
    return;
  }
  const { prepareTestInfrastructure } = await import(built.href);
  const infrastructure = await prepareTestInfrastructure(process.env, (line) =>
    process.stdout.write(`\n${line}\n`),
  );
  // The workers start after this and inherit the environment; globalTeardown runs in this process.
  Object.assign(process.env, infrastructure.env);
  globalThis.cpcTestInfrastructure = infrastructure;
}
