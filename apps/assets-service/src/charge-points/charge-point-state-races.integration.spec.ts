import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ChargePointEventSubjects } from '@cpc/contracts';
import type { JetStreamEventBus } from '@cpc/nats';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { type ConsumerRaceDatabase, createConsumerRaceDatabase } from '../testing/consumer-race-database.js';
import { ChargePointStateConsumer } from './charge-point-state.consumer.js';

/**
 * The live state consumer under redelivery, reordering and two replicas taking batches of one durable consumer at once
 * (handleBatch called directly; interleavings forced by a second session holding a controller's row lock).
 */

jest.setTimeout(60_000);

let db: ConsumerRaceDatabase;
/** Two replicas of the service: two consumer objects over the same database. */
let replicaA: ChargePointStateConsumer;
let replicaB: ChargePointStateConsumer;

const { connected, disconnected, connectorStatus, transactionUpdated } = ChargePointEventSubjects;

beforeAll(async () => {
  db = await createConsumerRaceDatabase();
  const replica = () =>
    new ChargePointStateConsumer(
      undefined as unknown as JetStreamEventBus,
      db.dataSource,
      ASSETS_SERVICE_TUNING,
    );
  replicaA = replica();
  replicaB = replica();
});

afterAll(async () => {
  await db?.drop();
});

describe('charge point state under redelivery and reordering', () => {
  it('ignores a redelivered connect and a redelivered disconnect that are older than the state', async () => {
    const [controller] = await db.createControllers(1);
    const connect1 = db.delivered(connected, controller, 1, { connectionId: 'c1', protocol: 'ocpp1.6' });
    const disconnect1 = db.delivered(disconnected, controller, 2, { connectionId: 'c1' });
    const connect2 = db.delivered(connected, controller, 3, { connectionId: 'c2', protocol: 'ocpp1.6' });
    await replicaA.handleBatch([connect1, disconnect1, connect2]);
    // Each redelivered on its own, then all of them again in one batch.
    await replicaA.handleBatch([{ ...connect1, position: { ...connect1.position, deliveryCount: 2 } }]);
    await replicaA.handleBatch([{ ...disconnect1, position: { ...disconnect1.position, deliveryCount: 2 } }]);
    await replicaB.handleBatch([connect1, disconnect1, connect2]);
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'online',
      connection_id: 'c2',
      changed_at: '2026-01-01 00:00:03',
    });
  });

  it("leaves a controller alone for another tenant's event that names its uuid", async () => {
    const [controller] = await db.createControllers(1);
    const [other] = await db.createControllers(1, randomUUID());
    await replicaA.handleBatch([db.delivered(connected, controller, 1, { connectionId: 'c1' })]);
    // The same controller uuid, under another tenant (which has controllers of its own), and the other tenant's
    // controller under ours.
    const foreign = db.delivered(disconnected, controller, 5, { connectionId: null });
    foreign.event.tenantUuid = randomUUID();
    await replicaA.handleBatch([
      foreign,
      db.delivered(connectorStatus, other, 6, { connectorId: 1, status: 'X' }),
    ]);
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'online',
      connection_id: 'c1',
      last_seen_at: '2026-01-01 00:00:01',
    });
    expect(await db.controllerState(other)).toMatchObject({
      connection_status: 'offline',
      last_seen_at: null,
    });
  });

  // The replaced connection's disconnect, handled before the connect of the connection that replaced it (two gateway
  // instances publish independently), takes the controller offline at 00:00:06; the connect (00:00:05) is still newer
  // than the connect of c1 (00:00:01), the connection it replaces, and the disconnect remembered is c1's, not c2's: a
  // connect is compared with the connection it replaces, never with another connection's disconnect.
  it("keeps a reconnected controller online when its old connection's disconnect comes first", async () => {
    const [controller] = await db.createControllers(1);
    await replicaA.handleBatch([
      db.delivered(connected, controller, 1, { connectionId: 'c1', protocol: 'ocpp1.6' }),
    ]);
    // c2 replaced c1 at 00:00:05; c1's socket was closed afterwards, at 00:00:06; the stream has them the other way.
    await replicaA.handleBatch([db.delivered(disconnected, controller, 6, { connectionId: 'c1' })]);
    await replicaA.handleBatch([
      db.delivered(connected, controller, 5, { connectionId: 'c2', protocol: 'ocpp1.6' }),
    ]);
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'online',
      connection_id: 'c2',
    });
  });

  // The same with two replicas and the events in stream order. Replica A takes the connect of c2 (with an event of
  // another controller that sorts first, whose lock it waits for); replica B takes c1's later disconnect, locks the
  // controller and commits first. A then finds c1 (opened 00:00:01) as the known connection and c2 newer: online.
  it('keeps a controller online when a replica commits the old disconnect before the new connect', async () => {
    const [first, controller] = await db.createControllers(2);
    await replicaA.handleBatch([
      db.delivered(connected, controller, 1, { connectionId: 'c1', protocol: 'ocpp1.6' }),
    ]);
    const session = await openSession(db.dataSource);
    await session.query(`SELECT 1 FROM assets.controllers WHERE uuid = $1 FOR NO KEY UPDATE`, [first]);
    const batchA = outcome(
      replicaA.handleBatch([
        db.delivered(transactionUpdated, first, 4),
        db.delivered(connected, controller, 5, { connectionId: 'c2', protocol: 'ocpp1.6' }),
      ]),
    );
    await lockWaiters(db.dataSource, 1);
    const batchB = await outcome(
      replicaB.handleBatch([db.delivered(disconnected, controller, 6, { connectionId: 'c1' })]),
    );
    await session.commitTransaction();
    await session.release();
    expect(batchB.error).toBeUndefined();
    expect((await batchA).error).toBeUndefined();
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'online',
      connection_id: 'c2',
    });
  });

  // A redelivered connect of the same instant as the disconnect that followed it (a socket closed within the
  // millisecond it opened, e.g. refused at once): ties are broken by the stream sequence, which a redelivery keeps, so
  // the connect is no newer than the connection the row knows (itself) and changes nothing.
  it('ignores a redelivered connect of the same instant as the disconnect after it', async () => {
    const [controller] = await db.createControllers(1);
    const connect = db.delivered(connected, controller, 1, { connectionId: 'c1', protocol: 'ocpp1.6' });
    await replicaA.handleBatch([connect, db.delivered(disconnected, controller, 1, { connectionId: 'c1' })]);
    expect(await db.controllerState(controller)).toMatchObject({ connection_status: 'offline' });
    // Its ack was lost: JetStream delivers the connect once more.
    await replicaB.handleBatch([{ ...connect, position: { ...connect.position, deliveryCount: 2 } }]);
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'offline',
      connection_id: null,
    });
  });

  it('serialises two replicas writing one controller: the newer event wins whichever commits last', async () => {
    const [controller] = await db.createControllers(1);
    const session = await openSession(db.dataSource);
    await session.query(`SELECT 1 FROM assets.controllers WHERE uuid = $1 FOR NO KEY UPDATE`, [controller]);
    // The newer batch queues first and so commits first; the older one must then change nothing.
    const newer = outcome(
      replicaA.handleBatch([
        db.delivered(connected, controller, 8, { connectionId: 'c8', protocol: 'ocpp2.0.1' }),
        db.delivered(connectorStatus, controller, 8, { connectorId: 1, status: 'Charging' }),
      ]),
    );
    await lockWaiters(db.dataSource, 1);
    const older = outcome(
      replicaB.handleBatch([
        db.delivered(connected, controller, 7, { connectionId: 'c7', protocol: 'ocpp1.6' }),
        db.delivered(connectorStatus, controller, 7, { connectorId: 1, status: 'Available' }),
      ]),
    );
    await lockWaiters(db.dataSource, 2);
    await session.commitTransaction();
    await session.release();
    expect((await newer).error).toBeUndefined();
    expect((await older).error).toBeUndefined();
    expect(await db.controllerState(controller)).toMatchObject({
      connection_status: 'online',
      connection_id: 'c8',
      last_seen_at: '2026-01-01 00:00:08',
    });
    const [plug] = await db.dataSource.query<{ status: string }[]>(
      `SELECT status FROM assets.plugs WHERE controller_uuid = $1 AND connector_id = 1`,
      [controller],
    );
    expect(plug.status).toBe('Charging');
  });
});
