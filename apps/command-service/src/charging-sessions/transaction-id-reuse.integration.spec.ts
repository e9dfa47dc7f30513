import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  ChargePointEventSubjects,
  CommandSubjects,
  type CreatedCommand,
  ErrorCode,
  chargingSessionUuidOf,
  type ChargingSessionPage,
  ChargingSessionSubjects,
  type ChargingSessionView,
  type MeterValuePage,
  type MeterValuesEvent,
  type OcppCallCompletedEvent,
  TelemetryEventSubjects,
} from '@cpc/contracts';
import { type DomainError } from '@cpc/errors';
import type { DeliveredEvent } from '@cpc/nats';
import type { RunningService } from '@cpc/service-runtime';
import { runStatement } from '@cpc/database';
import { eventually, openSession, type ServiceTestRig } from '@cpc/testing';
import { DataSource } from 'typeorm';
import { insertMeterSamples, recordSessionMeterSummaries } from '../repositories/meter-values.repository.js';
import { ReservationsService } from '../reservations/reservations.service.js';
import {
  type CommandServiceWithPlugs,
  startCommandServiceWithPlugs,
} from './testing/command-service-with-plugs.js';
import { DeliveredChargePointEvents } from './testing/delivered-charge-point-events.js';

/**
 * OCPP 2.0.1 charge points choose their transaction ids, and one that reboots may number its transactions from 1
 * again: a later transaction with the id of an earlier one is another charging session, with its own start, energy
 * and meter values, and the earlier session stays as it was. Events of either one that come again (at-least-once
 * delivery) or late still land on their own session.
 *
 * Bug (fixed): sessions were keyed by (tenant, controller, transaction id), so the new transaction was merged into the
 * old, ended session: its start kept, its meter values and energy added to it, and no second session
 * (repositories/charging-sessions.repository.ts upserts ON CONFLICT (tenant_uuid, controller_uuid,
 * ocpp_transaction_id); the unique constraint charging_sessions_transaction_key).
 */
let under: CommandServiceWithPlugs;
let rig: ServiceTestRig;
let service: RunningService;
const tenantUuid = randomUUID();

beforeAll(async () => {
  under = await startCommandServiceWithPlugs();
  ({ rig, service } = under);
});

afterAll(() => rig?.stop());

const FIRST_START = '2026-05-01T10:00:00.000Z';
const FIRST_END = '2026-05-01T11:00:00.000Z';
const SECOND_START = '2026-05-01T12:00:00.000Z';

/** The events of one 2.0.1 charge point, as the gateway makes them of its TransactionEvents. */
function chargePoint() {
  const controllerUuid = randomUUID();
  const events = new DeliveredChargePointEvents(tenantUuid);
  const started = (
    startedAt: string,
    meterStartWh: number,
    idTag: string,
    evseId = 1,
    reservationId: number | null = null,
  ) =>
    events.event(ChargePointEventSubjects.transactionStarted, controllerUuid, {
      transactionId: '1',
      connectorId: 1,
      evseId,
      idTag,
      meterStartWh,
      startedAt,
      reservationId,
    });
  const updated = (meterWh: number, sampledAt: string) =>
    events.event(ChargePointEventSubjects.transactionUpdated, controllerUuid, {
      transactionId: '1',
      meterWh,
      sampledAt,
    });
  const ended = (meterStopWh: number, stoppedAt: string, reason = 'EVDisconnected') =>
    events.event(ChargePointEventSubjects.transactionEnded, controllerUuid, {
      transactionId: '1',
      meterStopWh,
      stoppedAt,
      reason,
      evseId: 1,
      connectorId: 1,
    });
  const booted = (occurredAt: string) => {
    const boot = events.boot(controllerUuid);
    return { ...boot, event: { ...boot.event, occurredAt } };
  };
  /** A 2.0.1 TransactionEvent's sampled values: one Power.Active.Import of `watts`. */
  const power = (watts: number, sampledAt: string): MeterValuesEvent => ({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid,
    data: {
      controllerUuid,
      ocppIdentity: 'CP',
      transactionId: '1',
      evseId: 1,
      connectorId: 1,
      samples: [
        {
          sampledAt,
          measurand: 'Power.Active.Import',
          phase: null,
          location: 'Outlet',
          unit: 'W',
          context: 'Sample.Periodic',
          value: watts,
        },
      ],
    },
  });
  return { controllerUuid, started, updated, ended, booted, power };
}

/** Hands the consumer one batch, as JetStream would; every event must be handled (none redelivered). */
async function handle(...batch: DeliveredEvent[]): Promise<void> {
  const outcome = await under.handleSessionEvents(batch);
  expect([...outcome.redeliver]).toEqual([]);
}

const handleMeterValues = (event: MeterValuesEvent) => under.handleMeterValues(event);

/** A delivery of the same event again (JetStream redelivers what was not acknowledged in time). */
const again = (delivered: DeliveredEvent): DeliveredEvent => ({
  ...delivered,
  position: { ...delivered.position, deliveryCount: delivered.position.deliveryCount + 1 },
});

/** The sessions of transaction id '1' of the controller, oldest start first. */
async function sessionsOf(controllerUuid: string): Promise<ChargingSessionView[]> {
  const page = await rig.call<ChargingSessionPage>(
    ChargingSessionSubjects.list,
    {
      page: 1,
      limit: 50,
      orderBy: [{ field: 'started_at', direction: 'asc' }],
      filter: { controller_uuid: controllerUuid, ocpp_transaction_id: '1' },
    },
    tenantUuid,
  );
  return page.items;
}

const getSession = (uuid: string) =>
  rig.call<ChargingSessionView>(ChargingSessionSubjects.get, { uuid }, tenantUuid);

/** The values of the session's meter values, oldest first. */
async function meterValuesOf(uuid: string): Promise<number[]> {
  const page = await rig.call<MeterValuePage>(
    ChargingSessionSubjects.listMeterValues,
    { uuid, page: 1, limit: 50, filter: {} },
    tenantUuid,
  );
  return page.items.map((item) => item.value);
}

describe('a 2.0.1 transaction id used again after a reboot', () => {
  it('is a second session with its own start, energy and meter values; the first stays as it was', async () => {
    const cp = chargePoint();
    const publish = async ({ subject, event }: DeliveredEvent) => rig.eventBus.publish(subject, event);
    const publishMeterValues = (event: MeterValuesEvent) =>
      rig.eventBus.publish(TelemetryEventSubjects.meterValues, event);
    // The first transaction, start to end, through the durable event stream as the gateway publishes it.
    await publish(cp.started(FIRST_START, 1000, 'FIRST'));
    await publishMeterValues(cp.power(7000, '2026-05-01T10:15:00.000Z'));
    await publish(cp.updated(3000, '2026-05-01T10:30:00.000Z'));
    await publish(cp.ended(5000, FIRST_END));
    const [completed] = await eventually(
      () => sessionsOf(cp.controllerUuid),
      (sessions) => sessions[0]?.status === 'completed' && sessions[0].peak_power_w === 7000,
    );
    const first = await getSession(completed.uuid);
    expect(first).toMatchObject({
      uuid: chargingSessionUuidOf(tenantUuid, cp.controllerUuid, '1'),
      started_at: '2026-05-01T10:00:00Z',
      stopped_at: '2026-05-01T11:00:00Z',
      meter_start_wh: 1000,
      meter_stop_wh: 5000,
      energy_wh: 4000,
    });

    // The charge point reboots, numbers its transactions from 1 again, and starts a new one.
    await publish(cp.booted('2026-05-01T11:30:00.000Z'));
    await publish(cp.started(SECOND_START, 200, 'SECOND'));
    await publishMeterValues(cp.power(11_000, '2026-05-01T12:15:00.000Z'));
    await publish(cp.updated(900, '2026-05-01T12:30:00.000Z'));
    const sessions = await eventually(
      () => sessionsOf(cp.controllerUuid),
      (found) => found.length === 2 && found[1].energy_wh === 700 && found[1].peak_power_w === 11_000,
      { timeoutMs: 5000 },
    );

    expect(sessions[0]).toEqual(first);
    expect(await getSession(first.uuid)).toEqual(first);
    const second = sessions[1];
    expect(second.uuid).not.toBe(first.uuid);
    expect(second).toMatchObject({
      controller_uuid: cp.controllerUuid,
      ocpp_transaction_id: '1',
      id_tag: 'SECOND',
      status: 'active',
      started_at: '2026-05-01T12:00:00Z',
      stopped_at: null,
      meter_start_wh: 200,
      meter_stop_wh: null,
      energy_wh: 700,
      stop_reason: null,
      peak_power_w: 11_000,
      last_sample_at: '2026-05-01T12:15:00Z',
    });
    expect(await getSession(second.uuid)).toEqual(second);
    expect(await meterValuesOf(first.uuid)).toEqual([7000]);
    expect(await meterValuesOf(second.uuid)).toEqual([11_000]);
  });

  // Bug (fixed): a remote stop of the old, completed session was created and sent as RemoteStop / RequestStop with
  // transaction id 1, which the charge point took for its running transaction: it stopped the new session.
  it('refuses a command for the old session: its transaction id names the new transaction now', async () => {
    const cp = chargePoint();
    await handle(cp.started(FIRST_START, 1000, 'FIRST'), cp.ended(5000, FIRST_END));
    const [first] = await sessionsOf(cp.controllerUuid);
    const remoteStop = (targetUuid: string) =>
      rig.call<CreatedCommand>(
        CommandSubjects.create,
        { body: { type: 'remote_stop', target_type: 'charging_session', target_uuid: targetUuid } },
        tenantUuid,
      );
    // Before the id is used again, the session is a target like any (the charge point may answer Rejected).
    expect((await remoteStop(first.uuid)).command).toMatchObject({
      target_uuid: first.uuid,
      status: 'pending',
    });

    await handle(cp.booted('2026-05-01T11:30:00.000Z'), cp.started(SECOND_START, 200, 'SECOND'));
    const [, second] = await sessionsOf(cp.controllerUuid);
    const refusal = await remoteStop(first.uuid).then(
      () => {
        throw new Error('expected a 422');
      },
      (error: unknown) => error as DomainError,
    );
    expect(refusal).toMatchObject({ code: ErrorCode.ValidationFailed });
    expect(refusal.issues).toEqual([
      expect.objectContaining({ parameter: 'target_uuid', errorKey: 'transaction_id_reused' }),
    ]);
    expect((await remoteStop(second.uuid)).command).toMatchObject({
      target_uuid: second.uuid,
      status: 'pending',
    });
  });

  it('events of either transaction, again or late, land on their own session: none reopened, no third', async () => {
    const cp = chargePoint();
    const firstStarted = cp.started(FIRST_START, 1000, 'FIRST');
    const firstUpdated = cp.updated(3000, '2026-05-01T10:30:00.000Z');
    const firstEnded = cp.ended(5000, FIRST_END);
    const firstPower = cp.power(7000, '2026-05-01T10:15:00.000Z');
    const secondStarted = cp.started(SECOND_START, 200, 'SECOND');
    const secondPower = cp.power(11_000, '2026-05-01T12:15:00.000Z');
    await handle(firstStarted, firstUpdated, firstEnded);
    await handleMeterValues(firstPower);
    await handle(secondStarted, cp.updated(900, '2026-05-01T12:30:00.000Z'));
    await handleMeterValues(secondPower);

    // The first transaction's end, redelivered after the second started; a duplicate of each start; a reading of the
    // first transaction heard only now; meter values of both, again, and one of the first heard late.
    await handle(
      again(firstEnded),
      again(firstStarted),
      again(secondStarted),
      again(firstUpdated),
      cp.updated(4000, '2026-05-01T10:45:00.000Z'),
      again(firstEnded),
    );
    await handleMeterValues(firstPower);
    await handleMeterValues(secondPower);
    await handleMeterValues(cp.power(8000, '2026-05-01T10:50:00.000Z'));

    const [first, second, ...others] = await sessionsOf(cp.controllerUuid);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      uuid: chargingSessionUuidOf(tenantUuid, cp.controllerUuid, '1'),
      id_tag: 'FIRST',
      status: 'completed',
      started_at: '2026-05-01T10:00:00Z',
      stopped_at: '2026-05-01T11:00:00Z',
      stop_reason: 'EVDisconnected',
      meter_start_wh: 1000,
      energy_wh: 4000,
      peak_power_w: 8000,
      last_sample_at: '2026-05-01T10:50:00Z',
    });
    expect(second).toMatchObject({
      id_tag: 'SECOND',
      status: 'active',
      started_at: '2026-05-01T12:00:00Z',
      stopped_at: null,
      meter_start_wh: 200,
      energy_wh: 700,
      peak_power_w: 11_000,
      last_sample_at: '2026-05-01T12:15:00Z',
    });
    expect(await meterValuesOf(first.uuid)).toEqual([7000, 8000]);
    expect(await meterValuesOf(second.uuid)).toEqual([11_000]);

    // The second one ends; its start redelivered afterwards does not reopen it.
    const secondEnded = cp.ended(1500, '2026-05-01T13:00:00.000Z', 'Local');
    await handle(secondEnded, again(secondStarted), again(secondEnded));
    const after = await sessionsOf(cp.controllerUuid);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ uuid: first.uuid, stopped_at: '2026-05-01T11:00:00Z', energy_wh: 4000 });
    expect(after[1]).toMatchObject({
      uuid: second.uuid,
      status: 'completed',
      stopped_at: '2026-05-01T13:00:00Z',
      stop_reason: 'Local',
      energy_wh: 1300,
    });
  });

  // The gateway publishes a TransactionEvent's sampled values before its transaction event, and another consumer
  // stores them: they may be stored before the start of their transaction is. Within minutes of the old end they
  // count for the old session until the start is heard (a meter's clock may be a little ahead), then move.
  it.each([
    ['an hour after the old end', SECOND_START],
    ['a quick reboot, two minutes after the old end', '2026-05-01T11:02:00.000Z'],
  ])(
    "meter values of the new transaction stored before its start count for it, not for the old session's (%s)",
    async (_label, secondStart) => {
      const cp = chargePoint();
      await handle(cp.started(FIRST_START, 1000, 'FIRST'));
      await handleMeterValues(cp.power(7000, '2026-05-01T10:15:00.000Z'));
      await handle(cp.ended(5000, FIRST_END));
      await handleMeterValues(cp.power(9000, secondStart));
      await handle(cp.started(secondStart, 200, 'SECOND'));

      const [first, second, ...others] = await sessionsOf(cp.controllerUuid);
      expect(others).toEqual([]);
      expect(first).toMatchObject({
        peak_power_w: 7000,
        last_sample_at: '2026-05-01T10:15:00Z',
        energy_wh: 4000,
      });
      expect(second).toMatchObject({
        peak_power_w: 9000,
        last_sample_at: secondStart.replace('.000Z', 'Z'),
        status: 'active',
      });
      expect(await meterValuesOf(first.uuid)).toEqual([7000]);
      expect(await meterValuesOf(second.uuid)).toEqual([9000]);
    },
  );

  it('a reservation the new transaction uses is linked to the new session', async () => {
    const cp = chargePoint();
    await handle(cp.started(FIRST_START, 1000, 'FIRST'), cp.ended(5000, FIRST_END));
    const reserve = await acceptedReservation(cp.controllerUuid, 77);
    await handle(cp.started(SECOND_START, 200, 'SECOND', 1, 77));

    const [first, second] = await sessionsOf(cp.controllerUuid);
    const [reservation] = await service.app
      .get(DataSource, { strict: false })
      .query<{ status: string; charging_session_uuid: string }[]>(
        'SELECT status, charging_session_uuid FROM control.reservations WHERE reserve_command_uuid = $1',
        [reserve],
      );
    expect(reservation).toEqual({ status: 'used', charging_session_uuid: second.uuid });
    expect(second.uuid).not.toBe(first.uuid);
  });

  // Bug (fixed): a batch of meter values that read the sessions before the new start committed (its value counted for
  // no session: the old one had ended long before) and committed after the new session's summary was made again (which
  // did not see the uncommitted value) left the new session without that value's peak and time. The gateway publishes
  // a TransactionEvent and its sampled values apart, and they are written by two consumers side by side.
  it("a batch of meter values written across the new start counts for the new session's summary", async () => {
    const cp = chargePoint();
    await handle(cp.started(FIRST_START, 1000, 'FIRST'), cp.ended(5000, FIRST_END));
    const dataSource = service.app.get(DataSource, { strict: false });
    const sample = {
      tenantUuids: [tenantUuid],
      controllerUuids: [cp.controllerUuid],
      transactionIds: ['1'],
      sampledAts: ['2026-05-01T12:15:00.000Z'],
      measurands: ['Power.Active.Import'],
      phases: [null],
      units: ['W'],
      values: [11_000],
    };
    const batch = await openSession(dataSource);
    let startSettled = false;
    let start: Promise<void> | undefined;
    try {
      await runStatement(batch.manager, insertMeterSamples, {
        ...sample,
        evseIds: [1],
        connectorIds: [1],
        locations: ['Outlet'],
        contexts: ['Sample.Periodic'],
        eventIds: [randomUUID()],
        sampleIndexes: [0],
      });
      await runStatement(batch.manager, recordSessionMeterSummaries, {
        ...sample,
        uuids: [chargingSessionUuidOf(tenantUuid, cp.controllerUuid, '1')],
      });
      start = handle(cp.started(SECOND_START, 200, 'SECOND')).finally(() => (startSettled = true));
      // The start waits for the batch to commit (before the fix it went ahead and was done).
      await eventually(async () => startSettled || (await lockWaitersNow(dataSource)) > 0, Boolean);
      await batch.commitTransaction();
    } finally {
      if (batch.isTransactionActive) await batch.rollbackTransaction();
      await batch.release();
    }
    await start;

    const [first, second] = await sessionsOf(cp.controllerUuid);
    expect(first).toMatchObject({ peak_power_w: null, last_sample_at: null });
    expect(second).toMatchObject({
      started_at: '2026-05-01T12:00:00Z',
      peak_power_w: 11_000,
      last_sample_at: '2026-05-01T12:15:00Z',
    });
    expect(await meterValuesOf(second.uuid)).toEqual([11_000]);
  });
});

/** A reserve command of the charge point (reservation id `reservationId`), accepted by it: an active reservation. */
async function acceptedReservation(controllerUuid: string, reservationId: number): Promise<string> {
  const uuid = randomUUID();
  await service.app.get(DataSource, { strict: false }).query(
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
  await service.app.get(ReservationsService, { strict: false }).recordAnswer({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid,
    data: { commandUuid: uuid, reply: { outcome: 'answered', status: 'accepted', action: 'ReserveNow' } },
  } as unknown as OcppCallCompletedEvent);
  return uuid;
}

/**
 * A charge point that lost power mid-transaction and forgot it sends no Ended for it; once it uses the id again, the
 * old transaction is certainly over. An operator expects it closed and the new one open, as when a new transaction
 * starts on a connector with an open session: it ends when the charge point booted when that boot was heard after
 * its last message (stop_reason charge_point_rebooted, as a connector reporting Available would end it), else at the
 * new start (superseded), even when the new transaction runs on another EVSE. The charge point's own end, should it
 * still come, replaces the inferred one.
 */
describe('a 2.0.1 transaction id used again while its old session is still open', () => {
  it('without a boot heard: the old session ends superseded at the new start, the new one opens', async () => {
    const cp = chargePoint();
    const firstUpdated = cp.updated(3000, '2026-05-01T10:30:00.000Z');
    await handle(cp.started(FIRST_START, 1000, 'FIRST'), firstUpdated);
    await handleMeterValues(cp.power(7000, '2026-05-01T10:15:00.000Z'));
    // Sampled at the new transaction's start, stored before it, while the old session is still open.
    await handleMeterValues(cp.power(3000, SECOND_START));
    await handle(cp.started(SECOND_START, 200, 'SECOND', 2));
    await handle(again(firstUpdated));

    const [first, second, ...others] = await sessionsOf(cp.controllerUuid);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      id_tag: 'FIRST',
      status: 'completed',
      stopped_at: '2026-05-01T12:00:00Z',
      stop_reason: 'superseded',
      energy_wh: 2000,
      peak_power_w: 7000,
      last_sample_at: '2026-05-01T10:15:00Z',
    });
    expect(second).toMatchObject({
      id_tag: 'SECOND',
      evse_id: 2,
      status: 'active',
      started_at: '2026-05-01T12:00:00Z',
      meter_start_wh: 200,
      energy_wh: null,
      peak_power_w: 3000,
    });
  });

  it("after a boot: the old session ends at the boot; the charge point's own late end still wins", async () => {
    const cp = chargePoint();
    await handle(cp.started(FIRST_START, 1000, 'FIRST'), cp.updated(3000, '2026-05-01T10:30:00.000Z'));
    await handle(cp.booted('2026-05-01T11:00:00.000Z'), cp.started(SECOND_START, 200, 'SECOND', 2));

    let [first, second, ...others] = await sessionsOf(cp.controllerUuid);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      status: 'completed',
      stopped_at: '2026-05-01T11:00:00Z',
      stop_reason: 'charge_point_rebooted',
    });
    expect(second).toMatchObject({ status: 'active', started_at: '2026-05-01T12:00:00Z', stop_reason: null });

    // It did remember the old transaction after all and reports its end (the power loss at 10:40), after the new start.
    await handle(cp.ended(3500, '2026-05-01T10:40:00.000Z', 'PowerLoss'));
    [first, second, ...others] = await sessionsOf(cp.controllerUuid);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      stopped_at: '2026-05-01T10:40:00Z',
      stop_reason: 'PowerLoss',
      meter_stop_wh: 3500,
      energy_wh: 2500,
    });
    expect(second).toMatchObject({ status: 'active', meter_start_wh: 200, stopped_at: null });
  });
});

/** How many backends of the database wait for a lock now. */
async function lockWaitersNow(dataSource: DataSource): Promise<number> {
  const [{ waiting }] = await dataSource.query<{ waiting: number }[]>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return waiting;
}
