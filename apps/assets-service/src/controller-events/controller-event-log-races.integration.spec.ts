import 'reflect-metadata';
import { jest } from '@jest/globals';
import { ChargePointEventSubjects } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { ChargePointStateConsumer } from '../charge-points/charge-point-state.consumer.js';
import { type ConsumerRaceDatabase, createConsumerRaceDatabase } from '../testing/consumer-race-database.js';
import { ControllerEventLogConsumer } from './controller-event-log.consumer.js';

/**
 * The controllers' event log beside a second replica of itself and beside the live state consumer, both reading the
 * same charge-point events (handlers called directly; interleavings forced by a second session holding locks).
 */

jest.setTimeout(60_000);

let db: ConsumerRaceDatabase;
let eventLog: ControllerEventLogConsumer;
let liveState: ChargePointStateConsumer;

const { booted, firmwareStatus, securityEvent, transactionUpdated } = ChargePointEventSubjects;
const noBus = undefined as unknown as JetStreamEventBus;

beforeAll(async () => {
  db = await createConsumerRaceDatabase();
  eventLog = new ControllerEventLogConsumer(noBus, db.dataSource, ASSETS_SERVICE_TUNING);
  liveState = new ChargePointStateConsumer(noBus, db.dataSource, ASSETS_SERVICE_TUNING);
});

afterAll(async () => {
  await db?.drop();
});

async function logOf(
  controllerUuid: string,
): Promise<{ uuid: string; kind: string; details: Record<string, unknown> }[]> {
  return db.dataSource.query(
    `SELECT uuid, kind, details FROM assets.controller_events WHERE controller_uuid = $1 ORDER BY occurred_at, uuid`,
    [controllerUuid],
  );
}

describe('the controller event log under redelivery and beside other writers', () => {
  it('logs an event once when a replica redelivers it while the first delivery has not committed yet', async () => {
    const [controller] = await db.createControllers(1);
    const first = db.delivered(booted, controller, 1, { vendor: 'V' });
    const second = db.delivered(firmwareStatus, controller, 2, { status: 'Installed' });
    // The first delivery, in another replica's transaction that has not committed.
    const session = await openSession(db.dataSource);
    await session.query(
      `INSERT INTO assets.controller_events (uuid, tenant_uuid, controller_uuid, kind, occurred_at, details)
       VALUES ($1, $2, $3, 'booted', $4, '{}')`,
      [first.event.eventId, db.tenantUuid, controller, first.event.occurredAt],
    );
    const redelivered = outcome(eventLog.handle([second, first, second]));
    await lockWaiters(db.dataSource, 1);
    await session.commitTransaction();
    await session.release();
    expect((await redelivered).error).toBeUndefined();
    expect((await logOf(controller)).map((row) => row.uuid).sort()).toEqual(
      [first.event.eventId, second.event.eventId].sort(),
    );
    expect(await db.controllerState(controller)).toMatchObject({ firmware_status: 'Installed' });
  });

  it('keeps the rest of a batch, and the statuses in stream order, when one event cannot be stored', async () => {
    const [controller] = await db.createControllers(1);
    await eventLog.handle([
      db.delivered(firmwareStatus, controller, 1, { status: 'Downloading' }),
      // A lone surrogate: jsonb refuses it.
      db.delivered(securityEvent, controller, 2, { type: 'X\uD800' }),
      db.delivered(firmwareStatus, controller, 3, { status: 'Installed' }),
    ]);
    expect((await logOf(controller)).map((row) => row.kind)).toEqual(['firmware_status', 'firmware_status']);
    expect(await db.controllerState(controller)).toMatchObject({ firmware_status: 'Installed' });
  });

  // A text field is cut at 1000 characters (code points), never inside one, so no lone surrogate half is left for
  // jsonb to refuse: the event is logged with its field shortened.
  it('logs an event whose long field is cut inside a character outside the BMP', async () => {
    const [controller] = await db.createControllers(1);
    const techInfo = `${'a'.repeat(999)}\u{1F50C} and more`;
    await eventLog.handle([db.delivered(securityEvent, controller, 1, { type: 'TamperDetected', techInfo })]);
    const log = await logOf(controller);
    expect(log).toHaveLength(1);
    expect(String(log[0].details.tech_info)).toMatch(/^a{999}/);
  });

  // The event log writes a batch's statuses in one statement that first locks the controllers in uuid order, as the
  // live state consumer does: the two wait on each other in a line, never in a circle.
  it('never deadlocks with the live state consumer over the same controllers', async () => {
    const [c1, c2, c3] = await db.createControllers(3);
    // Holds c2, so the state batch stops after locking c1.
    const session = await openSession(db.dataSource);
    await session.query(`SELECT 1 FROM assets.controllers WHERE uuid = $1 FOR NO KEY UPDATE`, [c2]);
    const state = outcome(
      liveState.handleBatch(
        [c1, c2, c3].map((controller) => db.delivered(transactionUpdated, controller, 1)),
      ),
    );
    await lockWaiters(db.dataSource, 1);
    // Updates c3, then waits for the state batch's lock on c1.
    const log = outcome(
      eventLog.handle([
        db.delivered(firmwareStatus, c3, 1, { status: 'Downloading' }),
        db.delivered(firmwareStatus, c1, 1, { status: 'Downloading' }),
      ]),
    );
    await lockWaiters(db.dataSource, 2);
    // The state batch goes on to c3, which the event log holds.
    await session.commitTransaction();
    await session.release();
    const [stateOutcome, logOutcome] = await Promise.all([state, log]);
    expect(stateOutcome.error).toBeUndefined();
    expect(logOutcome.error).toBeUndefined();
    expect(await db.controllerState(c1)).toMatchObject({ firmware_status: 'Downloading' });
  });
});
