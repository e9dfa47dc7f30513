import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateServiceSchema, TableStatisticsKeeper } from '@cpc/database';
import { createTestDatabase, measurePreparedPlan, type TestDatabase } from '@cpc/testing';
import type { DataSource, QueryRunner } from 'typeorm';
import { COMMAND_SERVICE_TUNING } from '../command-service.config.js';
import { controlDataSourceOptions } from '../data-source.js';
import { applyCommandTransitions, claimDueCommands } from '../repositories/commands.repository.js';
import { acceptedBatch, insertCommands, insertOpenBacklog } from './testing/open-backlog.js';

/**
 * The prepared delivery statements on a new database: a connection's generic plans, made while control.commands was
 * empty, read the whole table once it has grown (PostgreSQL keeps them until the table is analysed), and read per
 * lane again once the service's TableStatisticsKeeper has analysed it.
 */

const LANES = 100;
const OPEN_PER_LANE = 50;
/** Ended commands beside the backlog: a table where reading per lane beats reading it whole, as in production. */
const ENDED = 60_000;
/** Well above what per-lane and per-uuid probes read here (a few hundred), far below one scan of the table. */
const READ_LIMIT = (LANES * OPEN_PER_LANE) / 5;

let database: TestDatabase;
let dataSource: DataSource;
let session: QueryRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource(controlDataSourceOptions(database.url));
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  session = dataSource.createQueryRunner();
  await session.connect();
  // The generic plans a connection keeps, made now, on the empty table.
  await session.query('SET plan_cache_mode = force_generic_plan');
  await session.query(`PREPARE claim AS ${claimDueCommands.text}`);
  await session.query(`PREPARE transitions AS ${applyCommandTransitions.text}`);
  await measurePreparedPlan(session, 'claim', claim().values, 'commands');
  await measurePreparedPlan(session, 'transitions', acceptedBatch([]).values, 'commands');
});

afterAll(async () => {
  await session?.release();
  await dataSource?.destroy();
  await database?.drop();
});

const claim = () => claimDueCommands.query({ owner: 'this instance', leaseMs: 30_000, limit: 100 });

describe('the delivery statements prepared on a new database', () => {
  it('read the grown table whole with the plans made when it was empty, and per lane once it is analysed', async () => {
    // A day's ended commands, then the backlog.
    const tenant = randomUUID();
    await insertCommands(
      dataSource,
      `SELECT gen_random_uuid(), $1, 'reset', 'controller', lane, lane, '{"targetType":"controller"}', '{}',
              'accepted', '{"status":"Accepted"}', now(), now() - i * interval '1 second', now(), now(), NULL, NULL,
              NULL, 1
         FROM generate_series(1, ${ENDED}) AS i, LATERAL (SELECT gen_random_uuid() AS lane) l`,
      [tenant],
    );
    const { busyHeads } = await insertOpenBacklog(dataSource, tenant, LANES, OPEN_PER_LANE);
    const batch = busyHeads.slice(0, 10);
    const read = async () => ({
      claim: (await measurePreparedPlan(session, 'claim', claim().values, 'commands')).read,
      transitions: (
        await measurePreparedPlan(session, 'transitions', acceptedBatch(batch).values, 'commands')
      ).read,
    });

    const stale = await read();
    expect(Math.max(stale.claim, stale.transitions)).toBeGreaterThanOrEqual(ENDED);

    const keeper = new TableStatisticsKeeper(dataSource, {
      tables: ['control.commands'],
      checkIntervalMs: COMMAND_SERVICE_TUNING.statisticsCheckIntervalMs,
      minPages: COMMAND_SERVICE_TUNING.statisticsMinPages,
    });
    expect(await keeper.keepUp()).toEqual(['control.commands']);
    const fresh = await read();
    expect(fresh.claim).toBeLessThan(READ_LIMIT);
    expect(fresh.transitions).toBeLessThan(READ_LIMIT);
  });
});
