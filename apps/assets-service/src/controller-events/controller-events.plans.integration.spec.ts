import { randomUUID } from 'node:crypto';
import { migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, measureStatementPlan, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { logAuthorizationRefusals } from '../authorization-decisions/authorization-decisions.repository.js';
import { createAssetsDataSource } from '../data-source.js';
import { recordControllerEvents } from './controller-events.repository.js';

/**
 * The event log's inserts run for every batch of charge point events (a reconnect storm writes thousands a second).
 * Each checks that the controllers it names exist; what is measured is the rows it reads from assets.controllers,
 * which must stay proportional to the batch, not to the fleet: `jsonb_to_recordset` counts as 100 rows to the
 * planner, and with the existence check as a semi-join the planner hashed the whole controllers table for every batch.
 */

const FLEET = 5_000;
const BATCH = 20;

let database: TestDatabase;
let dataSource: DataSource;
const tenant = randomUUID();
let controllers: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createAssetsDataSource(database.url);
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  const location = randomUUID();
  await dataSource.query(
    `INSERT INTO assets.locations (uuid, tenant_uuid, name, status, modification_date)
       VALUES ($1, $2, 'Depot', 'active', now())`,
    [location, tenant],
  );
  const rows = await dataSource.query<{ uuid: string }[]>(
    `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
     SELECT gen_random_uuid(), $1, $2, 'CP ' || i, 'CP-' || i, 0 FROM generate_series(1, ${FLEET}) AS i
     RETURNING uuid`,
    [tenant, location],
  );
  controllers = rows.map((row) => row.uuid);
  await dataSource.query('ANALYZE assets.controllers');
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const measure = (statement: { text: string; values: unknown[] }) =>
  measureStatementPlan(dataSource, statement, 'controllers', 'force_custom_plan');

describe('the event log inserts over a large fleet', () => {
  it("a batch of events reads its controllers, not the fleet's", async () => {
    const events = controllers.slice(0, BATCH).map((controllerUuid) => ({
      uuid: randomUUID(),
      tenantUuid: tenant,
      controllerUuid,
      kind: 'connected',
      occurredAt: new Date().toISOString(),
      details: {},
    }));
    const { read } = await measure(recordControllerEvents.query({ events: JSON.stringify(events) }));
    expect(read).toBeLessThanOrEqual(BATCH);
  });

  it("a batch of authorization refusals reads its controllers, not the fleet's", async () => {
    const decisions = controllers.slice(0, BATCH).map((controllerUuid) => ({
      uuid: randomUUID(),
      tenant_uuid: tenant,
      id_token: 'TAG-1',
      controller_uuid: controllerUuid,
      result: 'invalid',
      reason: 'unknown_token',
      message_kind: 'authorize',
      decided_at: new Date().toISOString(),
    }));
    const { read } = await measure(logAuthorizationRefusals.query({ decisions: JSON.stringify(decisions) }));
    expect(read).toBeLessThanOrEqual(BATCH);
  });
});
