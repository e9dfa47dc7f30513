import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, measureStatementPlan, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { controlDataSourceOptions } from '../data-source.js';
import { acceptedBatch, insertCommands, insertOpenBacklog } from './testing/open-backlog.js';
import {
  claimDueCommands,
  wakeCommandLanes,
  wakeConnectedLanes,
} from '../repositories/commands.repository.js';

/**
 * The delivery statements' plans when the statistics are stale in the worst way: analysed while no command was
 * open, then a backlog. The planner then believes the partial indexes over open commands empty; what is measured is
 * the rows each statement reads from control.commands (EXPLAIN ANALYZE, rows returned plus rows filtered out, times
 * loops), which must stay proportional to the lanes and commands the statement is about, not to the backlog.
 */

const LANES = 100;
const OPEN_PER_LANE = 50;
const OPEN_COMMANDS = LANES * OPEN_PER_LANE;
/** Well above what per-lane and per-uuid probes read here (a few hundred), far below one scan of the backlog. */
const READ_LIMIT = OPEN_COMMANDS / 5;

let database: TestDatabase;
let dataSource: DataSource;
let busyHeads: string[];
let controllers: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource(controlDataSourceOptions(database.url));
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  const tenant = randomUUID();
  const lanes = Array.from({ length: LANES }, () => randomUUID());
  // 20,000 ended commands, analysed: the statistics say no command is open.
  await insertCommands(
    dataSource,
    `SELECT gen_random_uuid(), $1, 'remote_start', 'controller', lane, lane, '{"targetType":"controller"}', '{}',
            'accepted', '{"status":"Accepted"}', now(), now() - i * interval '1 second', now(), now(), NULL, NULL, NULL, 1
       FROM generate_series(1, 20000) AS i, LATERAL (SELECT ($2::uuid[])[1 + i % ${LANES}] AS lane) l`,
    [tenant, lanes],
  );
  await dataSource.query('VACUUM (ANALYZE) control.commands');
  // Then a backlog: every lane has 50 open commands, the first half due, the rest waiting for a later time; the
  // head of every other lane is being delivered (leased).
  ({ controllers, busyHeads } = await insertOpenBacklog(dataSource, tenant, LANES, OPEN_PER_LANE, lanes));
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const measure = (
  statement: { text: string; values: unknown[] },
  planCacheMode: 'force_generic_plan' | 'force_custom_plan',
) => measureStatementPlan(dataSource, statement, 'commands', planCacheMode);

describe.each(['force_generic_plan', 'force_custom_plan'] as const)(
  'delivery statements over a backlog the statistics do not know (%s)',
  (planCacheMode) => {
    it('the claim reads per lane, not the backlog', async () => {
      const claim = claimDueCommands.query({ owner: 'this instance', leaseMs: 30_000, limit: 100 });
      const { read, returned } = await measure(claim, planCacheMode);
      expect(returned).toBe(LANES / 2);
      expect(read).toBeLessThan(READ_LIMIT);
    });

    it('a batch of endings reads its commands and their lanes, not the backlog, and hands the lanes over', async () => {
      const batch = busyHeads.slice(0, 10);
      const transitions = acceptedBatch(batch);
      const { read, returned } = await measure(transitions, planCacheMode);
      // A row per ended command and one per lane's next command, handed over.
      expect(returned).toBe(2 * batch.length);
      expect(read).toBeLessThan(READ_LIMIT);
    });

    it("the lane check (control.lane_is_free) reads the lane's head and lease, not the backlog", async () => {
      const heads = await dataSource.query<{ uuid: string; controller_uuid: string; next: string }[]>(
        `SELECT uuid, controller_uuid, next FROM (
           SELECT uuid, controller_uuid, lead(uuid) OVER lane AS next, row_number() OVER lane AS position
             FROM control.commands WHERE completed_at IS NULL
           WINDOW lane AS (PARTITION BY controller_uuid ORDER BY created_at, uuid)) AS open
          WHERE position = 1 ORDER BY controller_uuid`,
      );
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        await runner.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
        // Every lane, as a claim asks (with its head), as a creation asks (no head) and as a batch ending its head
        // asks to hand the next one over.
        const ask = async () => {
          const [counts] = (await runner.query(
            `SELECT count(*) FILTER (WHERE control.lane_is_free(lane, head)) AS free_heads,
                    count(*) FILTER (WHERE control.lane_is_free(lane, NULL)) AS empty_lanes,
                    count(*) FILTER (WHERE control.lane_is_free(lane, next, ARRAY[head])) AS handed_over
               FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS l(lane, head, next)`,
            [
              heads.map((head) => head.controller_uuid),
              heads.map((head) => head.uuid),
              heads.map((head) => head.next),
            ],
          )) as { free_heads: string; empty_lanes: string; handed_over: string }[];
          return counts;
        };
        // What this transaction read of control.commands so far (the function's own statements included).
        const readSoFar = async () => {
          const [{ read }] = (await runner.query(
            `SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) AS read FROM pg_stat_xact_user_tables
              WHERE relid = 'control.commands'::regclass`,
          )) as { read: string }[];
          return Number(read);
        };
        // plpgsql plans a statement for good after five runs: measure a run after that.
        for (let round = 0; round < 6; round += 1) await ask();
        const before = await readSoFar();
        expect(await ask()).toEqual({
          free_heads: String(LANES / 2),
          empty_lanes: '0',
          handed_over: String(LANES),
        });
        expect((await readSoFar()) - before).toBeLessThan(READ_LIMIT);
      } finally {
        await runner.rollbackTransaction().catch(() => undefined);
        await runner.release();
      }
    });

    it("waking lanes reads those lanes' waiting commands only", async () => {
      const lanes = controllers.slice(0, 10);
      const wake = wakeCommandLanes.query({ controllerUuids: lanes });
      const { read } = await measure(wake, planCacheMode);
      expect(read).toBeLessThan(READ_LIMIT);
    });

    it("waking the lanes of a batch of connected charge points reads those lanes' waiting commands only", async () => {
      // A reconnect storm's batch: a few charge points with commands among many without.
      const lanes = [...controllers.slice(0, 4), ...Array.from({ length: 250 }, () => randomUUID())];
      const wake = wakeConnectedLanes.query({ controllerUuids: lanes });
      const { read, returned } = await measure(wake, planCacheMode);
      expect(returned).toBe(4 * (OPEN_PER_LANE / 2));
      expect(read).toBeLessThan(READ_LIMIT);
    });
  },
);
