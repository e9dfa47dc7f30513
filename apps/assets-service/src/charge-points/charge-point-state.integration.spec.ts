import 'reflect-metadata';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import type pg from 'pg';
import { ChargePointEventSubjects, EVENT_STREAM, type EventEnvelope } from '@cpc/contracts';
import { eventually, type ServiceTestRig } from '@cpc/testing';
import { ASSETS_SERVICE_TUNING } from '../assets-service.config.js';
import { startAssetsServiceRigWithLocation } from '../testing/assets-service-rig.js';
import { CHARGE_POINT_STATE_CONSUMER, ChargePointStateConsumer } from './charge-point-state.consumer.js';

jest.setTimeout(120_000);

let rig: ServiceTestRig;
let db: pg.Client;
const tenant = randomUUID();
let locationUuid: string;
const t0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();

beforeAll(async () => {
  ({ rig, db, locationUuid } = await startAssetsServiceRigWithLocation(tenant));
  // Every disconnect the reference (applyOneByOne) handled, without bound.
  await db.query(`CREATE TABLE reference_disconnects (controller_uuid uuid NOT NULL, connection_id varchar,
                                                      at timestamptz NOT NULL, seq bigint NOT NULL)`);
});

afterAll(async () => {
  await db?.end();
  await rig?.stop();
});

/**
 * Controllers with three plugs each: connectors 1 and 2 on EVSE 1, connector 3 on EVSE 2 (so 2.0.1's EVSE 1
 * connector 2 is connector 2, and EVSE 2 connector 1 is connector 3).
 */
async function createControllers(count: number): Promise<string[]> {
  const uuids = Array.from({ length: count }, () => randomUUID());
  await db.query(
    `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
     SELECT u, $2, $3, 'CP', 'CP-' || u, 0 FROM unnest($1::uuid[]) AS u`,
    [uuids, tenant, locationUuid],
  );
  await db.query(
    `INSERT INTO assets.plugs (uuid, tenant_uuid, controller_uuid, connector_id, evse_id, standard, power_type, max_power_kw)
     SELECT gen_random_uuid(), $2, u, c.connector_id, c.evse_id, 'iec_62196_t2', 'ac_3_phase', 22
       FROM unnest($1::uuid[]) AS u, (VALUES (1, 1), (2, 1), (3, 2)) AS c(connector_id, evse_id)`,
    [uuids, tenant],
  );
  return uuids;
}

interface Published {
  subject: string;
  event: EventEnvelope<Record<string, unknown>>;
}

function stateEvent(controllerUuid: string, subject: string, seconds: number, data: object = {}): Published {
  return {
    subject,
    event: {
      eventId: randomUUID(),
      occurredAt: at(seconds),
      tenantUuid: tenant,
      data: { controllerUuid, ocppIdentity: `CP-${controllerUuid}`, ...data },
    },
  };
}

async function publishAll(events: readonly Published[]): Promise<void> {
  for (const { subject, event } of events) await rig.eventBus.publish(subject, event);
}

/** Everything published so far is applied and acknowledged. */
async function consumerCaughtUp(): Promise<void> {
  const manager = await jetstreamManager(rig.connection);
  await eventually(
    () => manager.consumers.info(EVENT_STREAM.name, CHARGE_POINT_STATE_CONSUMER),
    (info) => info.num_pending === 0 && info.num_ack_pending === 0,
    { timeoutMs: 60_000 },
  );
}

/** Publishes while the service is stopped, so the consumer finds a backlog and takes it in batches. */
async function publishBacklog(events: readonly Published[]): Promise<void> {
  await rig.stopService();
  await publishAll(events);
  await rig.startService();
  await consumerCaughtUp();
}

const CONTROLLER_STATE = `connection_status, connection_id, connection_changed_at::text, ocpp_protocol,
  last_seen_at::text, vendor, model, serial_number, firmware_version, booted_at::text`;

async function controllerStates(uuids: readonly string[]): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${CONTROLLER_STATE} FROM assets.controllers c JOIN unnest($1::uuid[]) WITH ORDINALITY AS k(uuid, n)
        ON c.uuid = k.uuid ORDER BY k.n`,
    [uuids],
  );
  return rows;
}

async function plugStates(uuids: readonly string[]): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT p.connector_id, p.status, p.error_code, p.status_updated_at::text
       FROM assets.plugs p JOIN unnest($1::uuid[]) WITH ORDINALITY AS k(uuid, n) ON p.controller_uuid = k.uuid
      ORDER BY k.n, p.connector_id`,
    [uuids],
  );
  return rows;
}

/**
 * The reference: the state consumer's rules as one autocommitted statement per change, one event at a time (as before
 * batches), with `sequence` the event's place in the stream. A batch must end in the same state as these statements
 * applied in stream order. Keys (instant, sequence) compare as rows; a sequence not stored counts as 0. Connections as
 * the truth has them, with every disconnect kept (reference_disconnects) where the consumer keeps a bounded few.
 */
async function applyOneByOne({ subject, event }: Published, sequence: number): Promise<void> {
  const data = event.data;
  const key = [event.tenantUuid, data.controllerUuid, new Date(event.occurredAt)];
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const touch = () =>
    db.query(
      `UPDATE assets.controllers SET last_seen_at = $3
        WHERE tenant_uuid = $1 AND uuid = $2 AND (last_seen_at IS NULL OR last_seen_at < $3)`,
      key,
    );
  switch (subject) {
    case ChargePointEventSubjects.connected:
      // Newer than the known connection's connect: it becomes the known one, closed when a disconnect of it (or one
      // naming none, or any when it names none) newer than it was handled; the controller went offline at the newest.
      await db.query(
        `WITH k AS (
           SELECT c.uuid,
                  (SELECT d.at FROM reference_disconnects d
                    WHERE d.controller_uuid = c.uuid
                      AND (d.connection_id IS NULL OR $4::varchar IS NULL OR d.connection_id = $4::varchar)
                      AND (d.at, d.seq) > ($3::timestamptz, $6::bigint)
                    ORDER BY d.at DESC, d.seq DESC LIMIT 1) AS closed_at
             FROM assets.controllers c WHERE c.tenant_uuid = $1 AND c.uuid = $2)
         UPDATE assets.controllers c
            SET connection_opened_at = $3, connection_opened_seq = $6, ocpp_protocol = $5,
                connection_status = CASE WHEN k.closed_at IS NULL THEN 'online' ELSE 'offline' END,
                connection_id = CASE WHEN k.closed_at IS NULL THEN $4::varchar END,
                connection_changed_at = CASE WHEN k.closed_at IS NULL THEN $3
                                             WHEN c.connection_status = 'online' THEN k.closed_at
                                             ELSE c.connection_changed_at END,
                last_seen_at = CASE WHEN k.closed_at IS NULL THEN GREATEST(c.last_seen_at, $3) ELSE c.last_seen_at END
           FROM k
          WHERE c.uuid = k.uuid
            AND (c.connection_opened_at IS NULL
                 OR (c.connection_opened_at, COALESCE(c.connection_opened_seq, 0)) < ($3::timestamptz, $6::bigint))`,
        [...key, text(data.connectionId), text(data.protocol), sequence],
      );
      return;
    case ChargePointEventSubjects.disconnected:
      // Newer than the known connection's connect: kept, and offline if about the connection the controller is online
      // over. (One no newer can never close a connect that applies from then on.)
      await db.query(
        `WITH k AS (
           SELECT uuid FROM assets.controllers
            WHERE tenant_uuid = $1 AND uuid = $2
              AND (connection_opened_at IS NULL
                   OR (connection_opened_at, COALESCE(connection_opened_seq, 0)) < ($3::timestamptz, $5::bigint))),
         kept AS (INSERT INTO reference_disconnects SELECT uuid, $4::varchar, $3, $5 FROM k)
         UPDATE assets.controllers SET connection_status = 'offline', connection_id = NULL, connection_changed_at = $3
          WHERE uuid IN (SELECT uuid FROM k) AND connection_status = 'online'
            AND ($4::varchar IS NULL OR connection_id IS NULL OR connection_id = $4::varchar)`,
        [...key, text(data.connectionId), sequence],
      );
      return;
    case ChargePointEventSubjects.booted:
      await touch();
      await db.query(
        `UPDATE assets.controllers
            SET vendor = $4, model = $5, serial_number = $6, firmware_version = $7, booted_at = $3, booted_seq = $8
          WHERE tenant_uuid = $1 AND uuid = $2
            AND (booted_at IS NULL OR (booted_at, COALESCE(booted_seq, 0)) < ($3::timestamptz, $8::bigint))`,
        [
          ...key,
          text(data.vendor),
          text(data.model),
          text(data.serialNumber),
          text(data.firmwareVersion),
          sequence,
        ],
      );
      return;
    case ChargePointEventSubjects.connectorStatus: {
      await touch();
      const connectorId = Number(data.connectorId);
      const evseId = data.evseId === null || data.evseId === undefined ? null : Number(data.evseId);
      if (!Number.isSafeInteger(connectorId) || connectorId < 1 || typeof data.status !== 'string') return;
      await db.query(
        `UPDATE assets.plugs SET status = $5::varchar, error_code = $6::varchar, status_updated_at = $3::timestamptz,
                                 status_updated_seq = $8::bigint
          WHERE uuid = (
              SELECT uuid FROM assets.plugs
               WHERE tenant_uuid = $1 AND controller_uuid = $2
                 AND ($7::int IS NULL AND connector_id = $4::int OR evse_id = $7::int)
               ORDER BY connector_id
               OFFSET CASE WHEN $7::int IS NULL THEN 0 ELSE $4::int - 1 END LIMIT 1)
            AND (status_updated_at IS NULL
                 OR (status_updated_at, COALESCE(status_updated_seq, 0)) < ($3::timestamptz, $8::bigint))`,
        [...key, connectorId, data.status.slice(0, 50), text(data.errorCode), evseId, sequence],
      );
      return;
    }
    default:
      await touch();
  }
}

/** The same events for the twin controller. */
function forTwin(events: readonly Published[], twins: ReadonlyMap<string, string>): Published[] {
  return events.map(({ subject, event }) => ({
    subject,
    event: {
      ...event,
      eventId: randomUUID(),
      data: { ...event.data, controllerUuid: twins.get(event.data.controllerUuid as string) },
    },
  }));
}

/**
 * Applies `events` (about `controllers`) through the consumer as a backlog, and the same events about twin
 * controllers one by one with the reference statements; returns both end states.
 */
async function batchedAndOneByOne(controllers: readonly string[], events: readonly Published[]) {
  const twinUuids = await createControllers(controllers.length);
  const twinOf = new Map(controllers.map((uuid, index) => [uuid, twinUuids[index]]));
  for (const [index, event] of forTwin(events, twinOf).entries()) await applyOneByOne(event, index + 1);
  await publishBacklog(events);
  return {
    batched: { controllers: await controllerStates(controllers), plugs: await plugStates(controllers) },
    oneByOne: { controllers: await controllerStates(twinUuids), plugs: await plugStates(twinUuids) },
  };
}

/** A small seeded generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('charge point state consumer, a batch at a time', () => {
  it('ends a burst of events for many controllers, published before it starts, with every row right', async () => {
    const controllers = await createControllers(300);
    const events = controllers.flatMap((uuid, index) => [
      stateEvent(uuid, ChargePointEventSubjects.connected, 1, {
        connectionId: `conn-${index}`,
        protocol: index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1',
      }),
      stateEvent(uuid, ChargePointEventSubjects.booted, 2, {
        vendor: 'ACME',
        model: `M-${index}`,
        serialNumber: `SN-${index}`,
        firmwareVersion: '1.0',
      }),
      stateEvent(uuid, ChargePointEventSubjects.connectorStatus, 3, {
        connectorId: 1,
        evseId: index % 2 === 0 ? null : 1,
        status: 'Available',
        errorCode: index % 2 === 0 ? 'NoError' : null,
      }),
      stateEvent(uuid, ChargePointEventSubjects.connectorStatus, 3, {
        connectorId: index % 2 === 0 ? 3 : 1,
        evseId: index % 2 === 0 ? null : 2,
        status: 'Charging',
        errorCode: null,
      }),
      stateEvent(uuid, ChargePointEventSubjects.transactionUpdated, 4),
    ]);
    // Calls through: only records the batches.
    const handleBatch = jest.spyOn(ChargePointStateConsumer.prototype, 'handleBatch');
    await publishBacklog(events);
    const batchSizes = handleBatch.mock.calls.map(([batch]) => batch.length);
    handleBatch.mockRestore();
    // Taken in batches, none larger than the tuning allows.
    expect(batchSizes.reduce((sum, size) => sum + size, 0)).toBe(events.length);
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(ASSETS_SERVICE_TUNING.chargePointStateBatchSize);
    expect(batchSizes.length).toBeLessThan(events.length / 10);

    const states = await controllerStates(controllers);
    expect(states).toEqual(
      controllers.map((_, index) => ({
        connection_status: 'online',
        connection_id: `conn-${index}`,
        connection_changed_at: '2026-01-01 00:00:01+00',
        ocpp_protocol: index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1',
        last_seen_at: '2026-01-01 00:00:04+00',
        vendor: 'ACME',
        model: `M-${index}`,
        serial_number: `SN-${index}`,
        firmware_version: '1.0',
        booted_at: '2026-01-01 00:00:02+00',
      })),
    );
    expect(await plugStates(controllers)).toEqual(
      controllers.flatMap((_, index) => [
        {
          connector_id: 1,
          status: 'Available',
          error_code: index % 2 === 0 ? 'NoError' : null,
          status_updated_at: '2026-01-01 00:00:03+00',
        },
        { connector_id: 2, status: 'unknown', error_code: null, status_updated_at: null },
        {
          connector_id: 3,
          status: 'Charging',
          error_code: null,
          status_updated_at: '2026-01-01 00:00:03+00',
        },
      ]),
    );
  });

  it('ends mixed orders within a batch in the state one event after the other gives', async () => {
    const [replaced, flapping, late] = await createControllers(3);
    const events = [
      // A second connection replaces the first; the first one's disconnect, later, leaves the controller online.
      // (Keeping only each controller's newest event would apply that disconnect and show it offline.)
      stateEvent(replaced, ChargePointEventSubjects.connected, 1, {
        connectionId: 'c1',
        protocol: 'ocpp1.6',
      }),
      stateEvent(replaced, ChargePointEventSubjects.connected, 6, {
        connectionId: 'c2',
        protocol: 'ocpp2.0.1',
      }),
      stateEvent(replaced, ChargePointEventSubjects.disconnected, 7, { connectionId: 'c1' }),
      // Connected, disconnected and connected again within the same second: the last in the stream wins.
      stateEvent(flapping, ChargePointEventSubjects.connected, 1, {
        connectionId: 'c1',
        protocol: 'ocpp1.6',
      }),
      stateEvent(flapping, ChargePointEventSubjects.disconnected, 2, { connectionId: 'c1' }),
      stateEvent(flapping, ChargePointEventSubjects.connected, 2, {
        connectionId: 'c2',
        protocol: 'ocpp1.6',
      }),
      // Older after newer: ignored, for the controller and for the plug.
      stateEvent(late, ChargePointEventSubjects.booted, 5, { vendor: 'New', model: 'M', serialNumber: null }),
      stateEvent(late, ChargePointEventSubjects.booted, 2, { vendor: 'Old', model: 'M', serialNumber: null }),
      stateEvent(late, ChargePointEventSubjects.connectorStatus, 4, { connectorId: 1, status: 'Charging' }),
      stateEvent(late, ChargePointEventSubjects.connectorStatus, 3, { connectorId: 1, status: 'Available' }),
      stateEvent(late, ChargePointEventSubjects.disconnected, 8, { connectionId: null }),
      stateEvent(late, ChargePointEventSubjects.connected, 7, { connectionId: 'c9', protocol: 'ocpp1.6' }),
    ];
    const { batched, oneByOne } = await batchedAndOneByOne([replaced, flapping, late], events);
    expect(batched).toEqual(oneByOne);
    expect(batched.controllers).toMatchObject([
      { connection_status: 'online', connection_id: 'c2', connection_changed_at: '2026-01-01 00:00:06+00' },
      { connection_status: 'online', connection_id: 'c2', connection_changed_at: '2026-01-01 00:00:02+00' },
      { connection_status: 'offline', vendor: 'New', last_seen_at: '2026-01-01 00:00:05+00' },
    ]);
    expect(batched.plugs[6]).toMatchObject({ connector_id: 1, status: 'Charging' });
  });

  it('ends random sequences of events, several per controller in each batch, as one by one would', async () => {
    const next = random(24);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    const controllers = await createControllers(60);
    const connections = ['c1', 'c2', 'c3'];
    const events = Array.from({ length: 1200 }, () => {
      const uuid = pick(controllers);
      // Few distinct seconds: ties and events older than the row are frequent.
      const seconds = Math.floor(next() * 6);
      switch (pick(['connected', 'disconnected', 'booted', 'status', 'status', 'seen'])) {
        case 'connected':
          return stateEvent(uuid, ChargePointEventSubjects.connected, seconds, {
            connectionId: pick(connections),
            protocol: pick(['ocpp1.6', 'ocpp2.0.1']),
          });
        case 'disconnected':
          return stateEvent(uuid, ChargePointEventSubjects.disconnected, seconds, {
            connectionId: pick([...connections, null]),
          });
        case 'booted':
          return stateEvent(uuid, ChargePointEventSubjects.booted, seconds, {
            vendor: pick(['A', 'B', 'C']),
            model: pick(['M1', 'M2']),
            serialNumber: pick(['S1', null]),
            firmwareVersion: pick(['1', '2']),
          });
        case 'status':
          return stateEvent(uuid, ChargePointEventSubjects.connectorStatus, seconds, {
            connectorId: pick([0, 1, 2, 3]),
            evseId: pick([null, 1, 2]),
            status: pick(['Available', 'Occupied', 'Charging', 'Faulted']),
            errorCode: pick([null, 'NoError', 'GroundFailure']),
          });
        default:
          return stateEvent(uuid, ChargePointEventSubjects.transactionUpdated, seconds);
      }
    });
    const { batched, oneByOne } = await batchedAndOneByOne(controllers, events);
    expect(batched).toEqual(oneByOne);
  });

  it('retries a failing batch and writes nothing of it until it succeeds (one transaction)', async () => {
    const [controller] = await createControllers(1);
    // Fails every write of the status "Explode"; the sequence counts the attempts (a sequence is not rolled back).
    await db.query(`CREATE SEQUENCE explode_attempts`);
    await db.query(`
      CREATE FUNCTION explode() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'Explode' THEN
          PERFORM nextval('explode_attempts');
          RAISE EXCEPTION 'the plug cannot take it';
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(
      `CREATE TRIGGER explode BEFORE UPDATE ON assets.plugs FOR EACH ROW EXECUTE FUNCTION explode()`,
    );
    // One event: the controller's last_seen_at is written before the plug in the same transaction.
    await publishAll([
      stateEvent(controller, ChargePointEventSubjects.connectorStatus, 9, {
        connectorId: 2,
        status: 'Explode',
      }),
    ]);
    const attempts = async () =>
      Number((await db.query<{ n: string }>(`SELECT last_value AS n FROM explode_attempts`)).rows[0].n);
    await eventually(attempts, (count) => count >= 2);
    expect(await controllerStates([controller])).toMatchObject([{ last_seen_at: null }]);
    expect((await plugStates([controller]))[1]).toMatchObject({ status: 'unknown', status_updated_at: null });

    await db.query(`DROP TRIGGER explode ON assets.plugs`);
    await eventually(
      () => plugStates([controller]),
      (plugs) => plugs[1].status === 'Explode',
    );
    expect(await controllerStates([controller])).toMatchObject([{ last_seen_at: '2026-01-01 00:00:09+00' }]);
  });

  it('drops malformed events and events of unknown controllers, and goes on with the rest of the batch', async () => {
    const [controller] = await createControllers(1);
    const malformed = stateEvent(controller, ChargePointEventSubjects.connected, 1, {
      connectionId: 'x'.repeat(101),
    });
    const unknown = stateEvent(randomUUID(), ChargePointEventSubjects.connected, 1, { connectionId: 'c1' });
    const noDate = stateEvent(controller, ChargePointEventSubjects.booted, 1, { vendor: 'Never' });
    noDate.event.occurredAt = 'yesterday';
    await publishBacklog([
      malformed,
      unknown,
      noDate,
      stateEvent(controller, ChargePointEventSubjects.booted, 2, { vendor: 'ACME', model: 'M' }),
    ]);
    expect(await controllerStates([controller])).toMatchObject([
      { connection_status: 'offline', vendor: 'ACME', last_seen_at: '2026-01-01 00:00:02+00' },
    ]);
  });

  it('takes every instant PostgreSQL can hold, far future and before the common era included', async () => {
    const [future, ancient] = await createControllers(2);
    const farFuture = stateEvent(future, ChargePointEventSubjects.transactionUpdated, 0);
    farFuture.event.occurredAt = '+010000-01-01T00:00:00.000Z';
    const beforeCommonEra = stateEvent(ancient, ChargePointEventSubjects.transactionUpdated, 0);
    beforeCommonEra.event.occurredAt = '-000100-06-01T00:00:00.000Z';
    await publishBacklog([farFuture, beforeCommonEra]);
    expect(await controllerStates([future, ancient])).toMatchObject([
      { last_seen_at: '10000-01-01 00:00:00+00' },
      { last_seen_at: '0101-06-01 00:00:00+00 BC' },
    ]);
  });
});
