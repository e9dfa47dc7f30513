import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, measureStatementPlan, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { controlDataSourceOptions } from '../data-source.js';
import { findControllersWithOpenSessions } from '../repositories/charging-sessions.repository.js';

/**
 * The plan of the open-session check of a batch of charge-point events when the statistics mislead: analysed while
 * every session of the batch's controllers was closed, then more open sessions than the statistics know. What is
 * measured is the rows the statement reads from control.charging_sessions (see measureStatementPlan), which must stay
 * proportional to the controllers asked about, not to their closed sessions or to other controllers' open ones.
 */

const ASKED = 256;
const CLOSED_SESSIONS = 20_000;
const WITH_OPEN_SESSION = 4;
/** A fraction of the closed sessions, far above the one index probe per controller asked about. */
const READ_LIMIT = CLOSED_SESSIONS / 20;

let database: TestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
const asked = Array.from({ length: ASKED }, () => randomUUID());

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource(controlDataSourceOptions(database.url));
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  const insertSessions = (select: string, values: unknown[]) =>
    dataSource.query(
      `INSERT INTO control.charging_sessions
         (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, connector_id, started_at, stopped_at)
       ${select}`,
      values,
    );
  // The asked controllers' past: closed sessions only, analysed.
  await insertSessions(
    `SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + i % ${ASKED}], 'closed-' || i, 1,
            now() - interval '2 hours', now() - interval '1 hour'
       FROM generate_series(1, ${CLOSED_SESSIONS}) AS i`,
    [tenant, asked],
  );
  await dataSource.query('VACUUM (ANALYZE) control.charging_sessions');
  // Then open sessions: one on a few of the asked controllers, and many of other controllers of the tenant.
  await insertSessions(
    `SELECT gen_random_uuid(), $1::uuid, controller_uuid, 'open', 1, now(), NULL::timestamptz
       FROM unnest($2::uuid[]) AS controller_uuid
     UNION ALL
     SELECT gen_random_uuid(), $1::uuid, gen_random_uuid(), 'open', 1, now(), NULL FROM generate_series(1, 10000)`,
    [tenant, asked.slice(0, WITH_OPEN_SESSION)],
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe.each(['force_generic_plan', 'force_custom_plan'] as const)(
  'the open-session check of a batch (%s)',
  (planCacheMode) => {
    it('reads one index probe per controller, not their closed sessions', async () => {
      const check = findControllersWithOpenSessions.query({
        tenantUuids: asked.map(() => tenant),
        controllerUuids: asked,
      });
      const { read, returned } = await measureStatementPlan(
        dataSource,
        check,
        'charging_sessions',
        planCacheMode,
      );
      expect(returned).toBe(WITH_OPEN_SESSION);
      expect(read).toBeLessThan(READ_LIMIT);
    });
  },
);
