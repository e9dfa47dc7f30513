import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { ChargePointEventSubjects, chargingSessionUuidOf, type OcppCallCompletedEvent } from '@cpc/contracts';
import { createServiceDataSource, migrateServiceSchema, runStatement } from '@cpc/database';
import type { DeliveredEvent } from '@cpc/nats';
import { createTestDatabase, lockWaiters, openSession, outcome, type TestDatabase } from '@cpc/testing';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CommandServiceConfig } from '../command-service.config.js';
import { controlDataSourceOptions } from '../data-source.js';
import { MeterValueBatchWriter } from '../meter-values/meter-value-batch.writer.js';
import { lockPlugAssignment } from '../repositories/charging-sessions.repository.js';
import { ReservationsService } from '../reservations/reservations.service.js';
import { ChargingSessionEventsConsumer } from './charging-session-events.consumer.js';
import { ChargingSessionsService, reusedTransactionSessionUuid } from './charging-sessions.service.js';
import { meterEvent } from './testing/meter-values-events.js';
import { DeliveredChargePointEvents } from './testing/delivered-charge-point-events.js';

let database: TestDatabase;
let dataSource: DataSource;
let sessions: ChargingSessionsService;
let consumer: ChargingSessionEventsConsumer;
let meterValues: MeterValueBatchWriter;
let reservations: ReservationsService;
let config: CommandServiceConfig;

/** assets-service as far as plug look-ups go: `${controller}/${connector}` → plug. */
const plugs = new Map<string, string>();

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource({ ...controlDataSourceOptions(database.url), poolSize: 6 });
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
  sessions = new ChargingSessionsService(dataSource);
  const resolver = {
    resolve: (_tenant: string, controllerUuid: string, connectorId: number | null) => {
      const plugUuid = plugs.get(`${controllerUuid}/${connectorId}`);
      return Promise.resolve(plugUuid ? { plugUuid } : { plugUuid: null, reason: 'no plug registered' });
    },
  };
  config = {
    tuning: {
      chargingSessionEventsBatchSize: 256,
      meterValueBatchMaxEvents: 256,
      meterValueInsertsInFlight: 2,
    },
  } as unknown as CommandServiceConfig;
  consumer = new ChargingSessionEventsConsumer(
    null as never,
    sessions,
    resolver as never,
    (reservations = new ReservationsService(dataSource)),
    config,
  );
  meterValues = new MeterValueBatchWriter(dataSource, config);
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

interface SessionRow {
  uuid: string;
  started_at: Date | null;
  stopped_at: Date | null;
  stop_reason: string | null;
  plug_uuid: string | null;
  meter_start_wh: number | null;
  meter_stop_wh: number | null;
  meter_last_wh: number | null;
}

async function rowsOf(tenantUuid: string, controllerUuid: string): Promise<SessionRow[]> {
  return dataSource.query<SessionRow[]>(
    `SELECT uuid, started_at, stopped_at, stop_reason, plug_uuid, meter_start_wh::float8 AS meter_start_wh,
            meter_stop_wh::float8 AS meter_stop_wh, meter_last_wh::float8 AS meter_last_wh
       FROM control.charging_sessions WHERE tenant_uuid = $1 AND controller_uuid = $2 ORDER BY started_at`,
    [tenantUuid, controllerUuid],
  );
}

/** Hands the consumer one batch, as JetStream would; every event must be handled (none redelivered). */
async function handle(...events: DeliveredEvent[]): Promise<void> {
  const { redeliver } = await consumer.handleBatch(events);
  expect([...(redeliver ?? [])]).toEqual([]);
}

function chargePoint() {
  const tenantUuid = randomUUID();
  const controllerUuid = randomUUID();
  const events = new DeliveredChargePointEvents(tenantUuid);
  const ended = (transactionId: string, meterStopWh: number, reason = 'Local') =>
    events.event(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId,
      stoppedAt: '2026-03-05T11:00:00.000Z',
      meterStopWh,
      reason,
    });
  const updated = (transactionId: string, meterWh: number | null, sampledAt: string) =>
    events.event(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId,
      meterWh,
      sampledAt,
    });
  return { tenantUuid, controllerUuid, events, ended, updated };
}

/**
 * A second session that inserts, uncommitted, a row with the derived uuid of transaction `transactionId`'s session but
 * stored under transaction `storedUnder`: it holds the session's first writers on the primary key, just after they
 * looked for the transaction's session and found none.
 */
async function holdingSessionRow(
  cp: ReturnType<typeof chargePoint>,
  transactionId: string,
  storedUnder: string,
): Promise<QueryRunner> {
  const holder = await openSession(dataSource);
  await holder.query(
    `INSERT INTO control.charging_sessions (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id)
     VALUES ($1, $2, $3, $4)`,
    [
      chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, transactionId),
      cp.tenantUuid,
      cp.controllerUuid,
      storedUnder,
    ],
  );
  return holder;
}

describe('charging sessions from redelivered and reordered events', () => {
  it('a redelivered start and end change nothing: one session, ended as the charge point said', async () => {
    const cp = chargePoint();
    const start = cp.events.transactionStarted(cp.controllerUuid, '7', 1);
    const end = cp.ended('7', 1500);
    await handle(start, end);
    await handle(start, end);
    await handle(end);
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      uuid: chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '7'),
      stop_reason: 'Local',
      meter_start_wh: 0,
      meter_stop_wh: 1500,
    });
    expect(rows[0].stopped_at?.toISOString()).toBe('2026-03-05T11:00:00.000Z');
  });

  it('an end heard before its start converges to the same completed session', async () => {
    const cp = chargePoint();
    await handle(cp.ended('8', 900));
    await handle(cp.events.transactionStarted(cp.controllerUuid, '8', 1));
    const [row] = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(row).toMatchObject({
      uuid: chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '8'),
      stop_reason: 'Local',
      meter_start_wh: 0,
      meter_stop_wh: 900,
    });
    expect(row.started_at?.toISOString()).toBe('2026-03-05T10:00:00.000Z');
  });

  /** A start and the end of transaction '9', handled at once while `holder` holds them up; both must succeed. */
  async function startAndEndAtOnce(cp: ReturnType<typeof chargePoint>, letGo: () => Promise<void>) {
    const started = outcome(handle(cp.events.transactionStarted(cp.controllerUuid, '9', 1)));
    const ended = outcome(handle(cp.ended('9', 400)));
    await lockWaiters(dataSource, 2);
    await letGo();
    expect([(await started).error, (await ended).error]).toEqual([undefined, undefined]);
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows).toHaveLength(1);
    expect(rows[0].started_at).not.toBeNull();
    expect(rows[0]).toMatchObject({
      uuid: chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '9'),
      stop_reason: 'Local',
      meter_stop_wh: 400,
    });
  }

  it('a start and its end waiting on the session another writer is inserting both apply to it', async () => {
    const cp = chargePoint();
    // The same session, inserted by another instance: both upserts wait on its key, then update it.
    const holder = await holdingSessionRow(cp, '9', '9');
    try {
      await startAndEndAtOnce(cp, () => holder.commitTransaction());
    } finally {
      await holder.release();
    }
  });

  // The upserts find the transaction's session, else insert the derived uuid: two first writes that both find none
  // meet on the primary key, and the later applies to the row the earlier inserted instead of failing.
  it('a start and its end of a new session handled at once both apply to one session', async () => {
    const cp = chargePoint();
    // Holds both writers just after their ON CONFLICT check, on the primary key (a row of that uuid, another key).
    const holder = await holdingSessionRow(cp, '9', 'elsewhere');
    try {
      await startAndEndAtOnce(cp, () => holder.rollbackTransaction());
    } finally {
      await holder.release();
    }
  });

  // A later session of a transaction id (the charge point used it again) takes the uuid derived from the id and its
  // start: two deliveries of its start at once meet on it, and the later one applies to the same session.
  it('a start of a reused transaction id delivered twice at once gives one second session', async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '13', 1), cp.ended('13', 500));
    const again = cp.events.event(ChargePointEventSubjects.transactionStarted, cp.controllerUuid, {
      transactionId: '13',
      connectorId: 1,
      evseId: null,
      idTag: 'TAG',
      meterStartWh: 0,
      startedAt: '2026-03-05T12:00:00.000Z',
    });
    const holder = await openSession(dataSource);
    try {
      // Holds both writers on the primary key, just after they found no session of this start.
      await holder.query(
        `INSERT INTO control.charging_sessions (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id)
         VALUES ($1, $2, $3, 'elsewhere')`,
        [
          reusedTransactionSessionUuid(cp.tenantUuid, cp.controllerUuid, '13', '2026-03-05T12:00:00.000Z'),
          cp.tenantUuid,
          cp.controllerUuid,
        ],
      );
      const first = outcome(handle(again));
      const second = outcome(handle(again));
      await lockWaiters(dataSource, 2);
      await holder.rollbackTransaction();
      expect([(await first).error, (await second).error]).toEqual([undefined, undefined]);
    } finally {
      await holder.release();
    }
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows.map((row) => [row.started_at?.toISOString(), row.stop_reason])).toEqual([
      ['2026-03-05T10:00:00.000Z', 'Local'],
      ['2026-03-05T12:00:00.000Z', null],
    ]);
  });

  it('a reading heard after the end does not reopen the session', async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '10', 1), cp.ended('10', 700));
    await handle(cp.updated('10', 650, '2026-03-05T10:59:00.000Z'));
    const [row] = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(row.stopped_at?.toISOString()).toBe('2026-03-05T11:00:00.000Z');
    expect(row).toMatchObject({ stop_reason: 'Local', meter_stop_wh: 700 });
  });

  it('an older reading redelivered after a newer one keeps the newer', async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '11', 1));
    await handle(
      cp.updated('11', 300, '2026-03-05T10:30:00.000Z'),
      cp.updated('11', 100, '2026-03-05T10:10:00.000Z'),
    );
    const [row] = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(row.meter_last_wh).toBe(300);
  });

  // An Updated without a reading (and no EVSE) keeps the session's latest reading and its time.
  it('an update without a reading keeps the latest reading of the session', async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '12', 1));
    await handle(cp.updated('12', 300, '2026-03-05T10:30:00.000Z'));
    await handle(cp.updated('12', null, '2026-03-05T10:31:00.000Z'));
    const [row] = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(row.meter_last_wh).toBe(300);
  });
});

describe('meter values around the session', () => {
  it('meter values after the end keep the session completed and count towards its summary', async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '20', 1), cp.ended('20', 100));
    await meterValues.write(meterEvent(cp.tenantUuid, cp.controllerUuid, '20'));
    const [row] = await dataSource.query<{ stopped_at: Date | null; peak_power_w: string }[]>(
      'SELECT stopped_at, peak_power_w FROM control.charging_sessions WHERE tenant_uuid = $1 AND controller_uuid = $2',
      [cp.tenantUuid, cp.controllerUuid],
    );
    expect(row.stopped_at).not.toBeNull();
    expect(Number(row.peak_power_w)).toBe(7000);
  });

  it("meter values of another tenant's transaction of the same ids do not touch this tenant's session", async () => {
    const cp = chargePoint();
    await handle(cp.events.transactionStarted(cp.controllerUuid, '21', 1));
    await meterValues.write(meterEvent(randomUUID(), cp.controllerUuid, '21'));
    const [row] = await dataSource.query<{ peak_power_w: string | null }[]>(
      'SELECT peak_power_w FROM control.charging_sessions WHERE tenant_uuid = $1 AND controller_uuid = $2',
      [cp.tenantUuid, cp.controllerUuid],
    );
    expect(row.peak_power_w).toBeNull();
  });

  // Meter values heard first create the session under the uuid derived from its key, which the start keeps and
  // webhook-service names (chargingSessionUuidOf).
  it('meter values heard before the start: the session keeps the uuid derived from its key', async () => {
    const cp = chargePoint();
    await meterValues.write(meterEvent(cp.tenantUuid, cp.controllerUuid, '22'));
    await handle(cp.events.transactionStarted(cp.controllerUuid, '22', 1));
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows.map((row) => row.uuid)).toEqual([
      chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '22'),
    ]);
  });
  it('meter values and the start of a new session written at the same instant both apply to it', async () => {
    const cp = chargePoint();
    // Holds both first writes just after they found no session of the transaction, on the primary key, as in the
    // start/end race above.
    const holder = await holdingSessionRow(cp, '23', 'elsewhere');
    try {
      const metered = outcome(meterValues.write(meterEvent(cp.tenantUuid, cp.controllerUuid, '23')));
      const started = outcome(handle(cp.events.transactionStarted(cp.controllerUuid, '23', 1)));
      await lockWaiters(dataSource, 2);
      await holder.rollbackTransaction();
      expect([(await metered).error, (await started).error]).toEqual([undefined, undefined]);
    } finally {
      await holder.release();
    }
    const [summary] = await dataSource.query<{ uuid: string; started: boolean; peak_power_w: number }[]>(
      `SELECT uuid, started_at IS NOT NULL AS started, peak_power_w::float8 AS peak_power_w
         FROM control.charging_sessions WHERE tenant_uuid = $1 AND controller_uuid = $2`,
      [cp.tenantUuid, cp.controllerUuid],
    );
    expect(summary).toEqual({
      uuid: chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '23'),
      started: true,
      peak_power_w: 7000,
    });
  });
});

describe('two sessions of one plug', () => {
  async function started(
    tenantUuid: string,
    controllerUuid: string,
    transactionId: string,
    connectorId: number | null,
    startedAt: string,
  ): Promise<string> {
    const state = await sessions.recordStart(tenantUuid, {
      controllerUuid,
      transactionId,
      connectorId,
      evseId: 1,
      idTag: 'TAG',
      startedAt,
      meterStartWh: 0,
    } as never);
    return state.uuid;
  }

  it('a late start of an older transaction on the connector ends at once, superseded by the newer', async () => {
    const cp = chargePoint();
    const plug = randomUUID();
    plugs.set(`${cp.controllerUuid}/1`, plug);
    const newer = cp.events.event(ChargePointEventSubjects.transactionStarted, cp.controllerUuid, {
      transactionId: '31',
      connectorId: 1,
      evseId: null,
      idTag: 'TAG',
      meterStartWh: 0,
      startedAt: '2026-03-05T12:00:00.000Z',
    });
    await handle(newer, cp.events.transactionStarted(cp.controllerUuid, '30', 1));
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows.map((row) => [row.stop_reason, row.plug_uuid])).toEqual([
      ['superseded', plug],
      [null, plug],
    ]);
  });

  // Plug assignments take turns per plug (lockPlugAssignment): a session that got the plug meanwhile is among the
  // rivals and is superseded, where the later write had failed on charging_sessions_one_active_per_plug.
  it('two sessions given the same plug at once: the later started keeps it, the older is superseded', async () => {
    const cp = chargePoint();
    const plug = randomUUID();
    // The older start named only the EVSE; the newer one its connector: they share no connector id.
    const older = await started(cp.tenantUuid, cp.controllerUuid, '40', null, '2026-03-05T10:00:00.000Z');
    const newer = await started(cp.tenantUuid, cp.controllerUuid, '41', 1, '2026-03-05T12:00:00.000Z');
    const holder = await openSession(dataSource);
    let result: { error?: unknown };
    try {
      // The older session's setPlug, in flight on another instance.
      await runStatement(holder.manager, lockPlugAssignment, { plugUuid: plug });
      await holder.query('UPDATE control.charging_sessions SET plug_uuid = $1 WHERE uuid = $2', [
        plug,
        older,
      ]);
      const pending = outcome(sessions.setPlug(newer, plug));
      await lockWaiters(dataSource, 1);
      await holder.commitTransaction();
      result = await pending;
    } finally {
      await holder.release();
    }
    expect(result.error).toBeUndefined();
    const rows = await rowsOf(cp.tenantUuid, cp.controllerUuid);
    expect(rows.map((row) => [row.uuid, row.stop_reason, row.plug_uuid])).toEqual([
      [older, 'superseded', plug],
      [newer, null, plug],
    ]);
  });

  // The plug resolution locks a controller's sessions in the order the meter-value writer does, so the two never
  // deadlock.
  it('a plug resolution and a meter batch over the same two sessions do not deadlock', async () => {
    const cp = chargePoint();
    const plug = randomUUID();
    const insert = (
      transactionId: string,
      connectorId: number | null,
      plugUuid: string | null,
      startedAt: string,
    ) =>
      dataSource.query(
        `INSERT INTO control.charging_sessions
                (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, connector_id, evse_id, plug_uuid, started_at)
         VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`,
        [
          chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, transactionId),
          cp.tenantUuid,
          cp.controllerUuid,
          transactionId,
          connectorId,
          plugUuid,
          startedAt,
        ],
      );
    // First in the heap: the newer session, whose start named only the EVSE; then the older one, holding the plug.
    await insert('tx-b', null, null, '2026-03-05T12:00:00.000Z');
    await insert('tx-a', 1, plug, '2026-03-05T10:00:00.000Z');
    const newer = chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, 'tx-b');
    const writer = new MeterValueBatchWriter(dataSource, {
      ...config,
      tuning: { ...config.tuning, meterValueInsertsInFlight: 1 },
    });
    const holder = await openSession(dataSource);
    let results: { error?: unknown }[];
    try {
      await holder.query('SELECT 1 FROM control.charging_sessions WHERE uuid = $1 FOR UPDATE', [newer]);
      const resolution = outcome(sessions.setPlug(newer, plug));
      await lockWaiters(dataSource, 1);
      // A lone event goes out at once; the two sent meanwhile make one group, one transaction.
      const lone = writer.write(meterEvent(cp.tenantUuid, cp.controllerUuid, null));
      const batch = outcome(
        Promise.all([
          writer.write(meterEvent(cp.tenantUuid, cp.controllerUuid, 'tx-a')),
          writer.write(meterEvent(cp.tenantUuid, cp.controllerUuid, 'tx-b')),
        ]),
      );
      await lone;
      await lockWaiters(dataSource, 2);
      await holder.commitTransaction();
      results = [await resolution, await batch];
    } finally {
      await holder.release();
    }
    expect(results.map((result) => result.error)).toEqual([undefined, undefined]);
  });
});

describe('a reservation used by a transaction whose messages come out of order', () => {
  /** A reserve command of the charge point, accepted by it. */
  async function activeReservation(tenantUuid: string, controllerUuid: string, reservationId: number) {
    const uuid = randomUUID();
    await dataSource.query(
      `INSERT INTO control.commands (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
                                     parameters, status, result, valid_until, created_at, completed_at)
       VALUES ($1, $2, 'reserve', 'controller', $3, $3, '{"targetType":"controller"}', $4,
               'accepted', '{"status":"Accepted"}', now() + interval '1 hour', now(), now())`,
      [
        uuid,
        tenantUuid,
        controllerUuid,
        JSON.stringify({
          reservation_id: reservationId,
          id_tag: 'TAG',
          expires_at: '2099-01-01T00:00:00.000Z',
        }),
      ],
    );
    await reservations.recordAnswer({
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      tenantUuid,
      data: { commandUuid: uuid, reply: { outcome: 'answered', status: 'accepted', action: 'ReserveNow' } },
    } as unknown as OcppCallCompletedEvent);
    return uuid;
  }

  // A use links the session by the uuid derived from its key when the session's row is not there yet: an Updated
  // naming the reservation (no reading) handled before the Started (which failed and comes again) had left the
  // reservation used without a session, and the later Started could not fill it in.
  it('the reservation is linked to the session even when the start is handled after the update', async () => {
    const cp = chargePoint();
    const reserve = await activeReservation(cp.tenantUuid, cp.controllerUuid, 77);
    await handle(
      cp.events.event(ChargePointEventSubjects.transactionUpdated, cp.controllerUuid, {
        transactionId: '50',
        meterWh: null,
        sampledAt: '2026-03-05T10:01:00.000Z',
        evseId: 1,
        connectorId: 1,
        reservationId: 77,
      }),
    );
    await handle(
      cp.events.event(ChargePointEventSubjects.transactionStarted, cp.controllerUuid, {
        transactionId: '50',
        connectorId: 1,
        evseId: 1,
        idTag: 'TAG',
        meterStartWh: 0,
        startedAt: '2026-03-05T10:00:00.000Z',
        reservationId: 77,
      }),
    );
    const [reservation] = await dataSource.query<{ status: string; charging_session_uuid: string | null }[]>(
      'SELECT status, charging_session_uuid FROM control.reservations WHERE reserve_command_uuid = $1',
      [reserve],
    );
    expect(reservation).toEqual({
      status: 'used',
      charging_session_uuid: chargingSessionUuidOf(cp.tenantUuid, cp.controllerUuid, '50'),
    });
  });
});
