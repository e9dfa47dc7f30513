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

/** A connection change as the gateway publishes it: a connect or disconnect of a connection at an instant (s). */
type Change = ['connect' | 'disconnect', string, number];

/**
 * The state the events must end in, whatever order they are handled in: online over the connection with the newest
 * connect unless a disconnect of that connection newer than the connect was handled.
 */
function truthOf(changes: readonly Change[]): { connection_status: string; connection_id: string | null } {
  const connects = changes.filter(([kind]) => kind === 'connect');
  const [, newest, openedAt] = connects.reduce((a, b) => (b[2] > a[2] ? b : a));
  const closed = changes.some(([kind, id, at]) => kind === 'disconnect' && id === newest && at > openedAt);
  return closed
    ? { connection_status: 'offline', connection_id: null }
    : { connection_status: 'online', connection_id: newest };
}

/** Every order of the indexes 0 … count - 1. */
function permutations(count: number): number[][] {
  if (count === 0) return [[]];
  return permutations(count - 1).flatMap((order) =>
    Array.from({ length: count }, (_, at) => [...order.slice(0, at), count - 1, ...order.slice(at)]),
  );
}

describe('charge point state, connections in every order', () => {
  /**
   * Every order of `changes` handled on a controller of its own: each event in a batch of its own, or all of one
   * order in one batch (events about one controller applied one after the other); then all of them redelivered at
   * once. Returns the orders that ended elsewhere than the truth, as `C1 D2 …` (connect or disconnect, connection),
   * before and after the redelivery.
   */
  async function ordersEndingWrong(changes: readonly Change[]): Promise<string[]> {
    const orders = permutations(changes.length);
    const expected = truthOf(changes);
    const controllers = await db.createControllers(orders.length * 2);
    const eventsOf = controllers.map((controller) =>
      changes.map(([kind, connectionId, seconds]) =>
        kind === 'connect'
          ? db.delivered(connected, controller, seconds, { connectionId, protocol: 'ocpp1.6' })
          : db.delivered(disconnected, controller, seconds, { connectionId }),
      ),
    );
    const alone = orders.map((order, index) => order.map((step) => eventsOf[index][step]));
    const together = orders.map((order, index) => order.map((step) => eventsOf[orders.length + index][step]));
    const name = ([kind, connectionId]: Change) =>
      `${kind === 'connect' ? 'C' : 'D'}${connectionId.slice(1)}`;
    const wrong = async (when: string) => {
      const rows = await db.dataSource.query<
        { uuid: string; connection_status: string; connection_id: string }[]
      >(
        `SELECT uuid, connection_status, connection_id FROM assets.controllers WHERE uuid = ANY($1::uuid[])`,
        [controllers],
      );
      const states = new Map(rows.map(({ uuid, ...state }) => [uuid, state]));
      return controllers.flatMap((controller, index) => {
        const state = states.get(controller);
        if (
          state?.connection_status === expected.connection_status &&
          state.connection_id === expected.connection_id
        )
          return [];
        const order = orders[index % orders.length].map((step) => name(changes[step])).join(' ');
        const batches = index < orders.length ? 'a batch each' : 'one batch';
        return [`${when}, ${batches}: ${order} → ${state?.connection_status} ${state?.connection_id}`];
      });
    };
    for (let step = 0; step < changes.length; step++) {
      await replicaA.handleBatch(alone.map((events) => events[step]));
    }
    await replicaB.handleBatch(together.flat());
    const handled = await wrong('handled');
    await replicaA.handleBatch(
      eventsOf
        .flat()
        .reverse()
        .map((event) => ({ ...event, position: { ...event.position, deliveryCount: 2 } })),
    );
    return [...handled, ...(await wrong('redelivered'))];
  }

  // c2 replaces c1 at 5 s and closes at 6 s, before c1's socket closes at 7 s. With both disconnects handled before
  // c2's connect, remembering only the newer one (c1's) brought the controller online over c2 (8 of the 24 orders).
  it('ends offline when both connections closed, whatever order their four events come in', async () => {
    expect(
      await ordersEndingWrong([
        ['connect', 'c1', 1],
        ['connect', 'c2', 5],
        ['disconnect', 'c2', 6],
        ['disconnect', 'c1', 7],
      ]),
    ).toEqual([]);
  });

  // During a rolling update a replica of the version that remembered one disconnect keeps writing it to the columns
  // it had (connection_closed_id, _at, _seq), which still hold the newest; the others are in connection_closed_earlier.
  it('reads the disconnects remembered in both places, and leaves out a stored entry that is not one', async () => {
    const [controller] = await db.createControllers(1);
    await replicaA.handleBatch([
      db.delivered(connected, controller, 1, { connectionId: 'c1', protocol: 'ocpp1.6' }),
    ]);
    const connect2 = db.delivered(connected, controller, 5, { connectionId: 'c2', protocol: 'ocpp1.6' });
    const connect3 = db.delivered(connected, controller, 6, { connectionId: 'c3', protocol: 'ocpp1.6' });
    // c3 closed at 7 s (remembered by the earlier version), c2 at 5.5 s; something else left junk beside them.
    await db.dataSource.query(
      `UPDATE assets.controllers
          SET connection_status = 'offline', connection_id = NULL, connection_closed_id = 'c3',
              connection_closed_at = '2026-01-01T00:00:07Z', connection_closed_seq = NULL,
              connection_closed_earlier = $2::jsonb
        WHERE uuid = $1`,
      [
        controller,
        JSON.stringify([
          { connectionId: 'c2', at: '2026-01-01T00:00:05.500Z', sequence: 1 },
          { connectionId: 'c4', at: 'later' },
          'c5',
        ]),
      ],
    );
    await replicaB.handleBatch([connect2]);
    expect(await db.controllerState(controller)).toMatchObject({ connection_status: 'offline' });
    await replicaB.handleBatch([connect3]);
    expect(await db.controllerState(controller)).toMatchObject({ connection_status: 'offline' });
    const [row] = await db.dataSource.query<Record<string, unknown>[]>(
      `SELECT connection_closed_id, connection_closed_earlier FROM assets.controllers WHERE uuid = $1`,
      [controller],
    );
    // Nothing newer than the connect of c3 (6 s) but its disconnect is left to remember.
    expect(row).toEqual({ connection_closed_id: 'c3', connection_closed_earlier: null });
  });

  it('ends offline when the newest connection closed last, whatever the order', async () => {
    expect(
      await ordersEndingWrong([
        ['connect', 'c1', 1],
        ['connect', 'c2', 5],
        ['disconnect', 'c1', 6],
        ['disconnect', 'c2', 8],
      ]),
    ).toEqual([]);
  });

  // As above with three connections, each replaced before the older ones close (about 300 of the 720 orders).
  it('ends offline when three connections closed, whatever order their six events come in', async () => {
    expect(
      await ordersEndingWrong([
        ['connect', 'c1', 1],
        ['connect', 'c2', 3],
        ['connect', 'c3', 5],
        ['disconnect', 'c3', 6],
        ['disconnect', 'c2', 7],
        ['disconnect', 'c1', 8],
      ]),
    ).toEqual([]);
  });

  it('stays online over the newest of three connections when the older ones closed, whatever the order', async () => {
    expect(
      await ordersEndingWrong([
        ['connect', 'c1', 1],
        ['connect', 'c2', 3],
        ['disconnect', 'c1', 4],
        ['connect', 'c3', 5],
        ['disconnect', 'c2', 6],
      ]),
    ).toEqual([]);
  });
});
