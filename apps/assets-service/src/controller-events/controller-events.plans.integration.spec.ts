import { randomUUID } from 'node:crypto';
import { measureStatementPlan } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { logAuthorizationRefusals } from '../authorization-decisions/authorization-decisions.repository.js';
import { type AssetsFleetDatabase, createAssetsFleetDatabase } from '../testing/assets-fleet-database.js';
import { recordControllerEvents } from './controller-events.repository.js';

/**
 * The event log's inserts run for every batch of charge point events (a reconnect storm writes thousands a second).
 * Each checks that the controllers it names exist; what is measured is the rows it reads from assets.controllers,
 * which must stay proportional to the batch, not to the fleet: `jsonb_to_recordset` counts as 100 rows to the
 * planner, and with the existence check as a semi-join the planner hashed the whole controllers table for every batch.
 */

const FLEET = 5_000;
const BATCH = 20;

let fleet: AssetsFleetDatabase;
let dataSource: DataSource;
let tenant: string;
let controllers: string[];

beforeAll(async () => {
  fleet = await createAssetsFleetDatabase(FLEET);
  ({ dataSource, tenantUuid: tenant, controllers } = fleet);
});

afterAll(async () => {
  await fleet?.drop();
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
