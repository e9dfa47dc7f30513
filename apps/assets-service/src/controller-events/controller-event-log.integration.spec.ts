import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ChargePointEventSubjects, type EventEnvelope } from '@cpc/contracts';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import type { JetStreamEventBus } from '@cpc/nats';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { assetsDataSourceOptions } from '../data-source.js';
import { startAssetsServiceRigWithLocation } from '../testing/assets-service-rig.js';
import { ControllerEventLogConsumer, loggedEventOf } from './controller-event-log.consumer.js';

jest.setTimeout(120_000);

let rig: ServiceTestRig;
let db: pg.Client;
let dataSource: DataSource;
let consumer: ControllerEventLogConsumer;
const tenant = randomUUID();
let locationUuid: string;

beforeAll(async () => {
  ({ rig, db, locationUuid } = await startAssetsServiceRigWithLocation(tenant));
  // A second consumer object over the same database, its handle() driven by the test.
  dataSource = createServiceDataSource({ ...assetsDataSourceOptions(rig.database.url), poolSize: 2 });
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  consumer = new ControllerEventLogConsumer(
    undefined as unknown as JetStreamEventBus,
    dataSource,
    ASSETS_SERVICE_TUNING,
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  await db?.end();
  await rig?.stop();
});

async function createController(): Promise<string> {
  const uuid = randomUUID();
  await db.query(
    `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
     VALUES ($1::uuid, $2, $3, 'CP', 'CP-' || $1::text, 0)`,
    [uuid, tenant, locationUuid],
  );
  return uuid;
}

function chargePointEvent(
  subject: string,
  controllerUuid: string,
  data: Record<string, unknown> = {},
  overrides: Partial<EventEnvelope<unknown>> = {},
) {
  return {
    subject,
    event: {
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid: tenant,
      data: { controllerUuid, ocppIdentity: 'CP', ...data },
      ...overrides,
    } as EventEnvelope<unknown>,
  };
}

async function logOf(controllerUuid: string): Promise<{ kind: string; details: Record<string, unknown> }[]> {
  const { rows } = await db.query<{ kind: string; details: Record<string, unknown> }>(
    'SELECT kind, details FROM assets.controller_events WHERE controller_uuid = $1 ORDER BY occurred_at, kind',
    [controllerUuid],
  );
  return rows;
}

describe("the controllers' event log", () => {
  it('writes a batch at once: repeats once, unknown controllers and other kinds not at all, statuses onto the controller', async () => {
    const controller = await createController();
    const booted = chargePointEvent(ChargePointEventSubjects.booted, controller, { vendor: 'V', model: 'M' });
    await consumer.handle([
      booted,
      booted,
      chargePointEvent(ChargePointEventSubjects.connectorStatus, controller, {
        connectorId: 1,
        status: 'Available',
      }),
      chargePointEvent(ChargePointEventSubjects.firmwareStatus, controller, { status: 'Downloading' }),
      chargePointEvent(ChargePointEventSubjects.firmwareStatus, controller, { status: 'Installed' }),
      chargePointEvent(ChargePointEventSubjects.booted, randomUUID()),
      chargePointEvent('events.charge-point.heartbeat.v1', controller),
    ]);
    const log = await logOf(controller);
    expect(log.map((row) => row.kind).sort()).toEqual([
      'booted',
      'firmware_status',
      'firmware_status',
      'status_changed',
    ]);
    const { rows } = await db.query<{ firmware_status: string }>(
      'SELECT firmware_status FROM assets.controllers WHERE uuid = $1',
      [controller],
    );
    expect(rows[0].firmware_status).toBe('Installed');
    // Delivered again (a redelivered batch): nothing more.
    await consumer.handle([booted]);
    expect(await logOf(controller)).toHaveLength(4);
  });

  it('keeps what the database can take: NUL characters dropped, impossible times and ids refused alone', async () => {
    const controller = await createController();
    await consumer.handle([
      chargePointEvent(ChargePointEventSubjects.booted, controller, { vendor: 'A\u0000B' }),
      chargePointEvent(
        ChargePointEventSubjects.connected,
        controller,
        {},
        { occurredAt: '+010000-01-01T00:00:00Z' },
      ),
      chargePointEvent(ChargePointEventSubjects.connected, controller, {}, { eventId: 'not-a-uuid' }),
      chargePointEvent(ChargePointEventSubjects.disconnected, controller, { reason: 'gone' }),
      // A lone surrogate: valid JSON, refused by jsonb (a data exception) for its event alone.
      chargePointEvent(ChargePointEventSubjects.securityEvent, controller, { type: 'X\uD800' }),
    ]);
    const log = await logOf(controller);
    expect(log.map((row) => row.kind).sort()).toEqual(['booted', 'disconnected']);
    expect(log.find((row) => row.kind === 'booted')?.details.vendor).toBe('AB');
  });

  it('takes what the gateway publishes, through its durable consumer', async () => {
    const controller = await createController();
    for (let connector = 1; connector <= 20; connector += 1) {
      const { subject, event } = chargePointEvent(ChargePointEventSubjects.connectorStatus, controller, {
        connectorId: connector,
        status: 'Available',
      });
      await rig.eventBus.publish(subject, event);
    }
    await eventually(
      () => logOf(controller),
      (log) => log.length === 20,
      { timeoutMs: 30_000 },
    );
  });

  it('classifies the kinds it keeps and the events it cannot', () => {
    const controller = randomUUID();
    const { subject, event } = chargePointEvent(ChargePointEventSubjects.securityEvent, controller, {
      type: 'FirmwareUpdated',
    });
    expect(loggedEventOf(subject, event)).toMatchObject({
      kind: 'security_event',
      controllerUuid: controller,
    });
    expect(loggedEventOf('events.charge-point.heartbeat.v1', event)).toBeUndefined();
    expect(loggedEventOf(subject, { ...event, occurredAt: 'yesterday' })).toBe('malformed');
  });
});
