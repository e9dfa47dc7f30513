import { randomUUID } from 'node:crypto';
import type { OcppCallCompletedEvent } from '@cpc/contracts';
import type { DataSource } from 'typeorm';
import type { ReservationsService } from './reservations.service.js';
import {
  type ChargePoint,
  chargePoint,
  createReservationsTestDatabase,
  type ReservationsTestDatabase,
} from './testing/reservations-test-database.js';

let testDatabase: ReservationsTestDatabase;
let dataSource: DataSource;
let reservations: ReservationsService;

beforeAll(async () => {
  testDatabase = await createReservationsTestDatabase();
  ({ dataSource, reservations } = testDatabase);
});

afterAll(async () => {
  await testDatabase?.drop();
});

/** A reserve command as command-service stored it when the API created it (`createdAt` ago by default now), ended. */
async function reserveCommand(
  at: ChargePoint,
  reservationId: number,
  createdAt = new Date(),
  status = 'accepted',
): Promise<string> {
  const uuid = randomUUID();
  await dataSource.query(
    `INSERT INTO control.commands (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
                                   parameters, status, result, valid_until, created_at, completed_at)
     VALUES ($1, $2, 'reserve', 'controller', $3, $3, '{"targetType":"controller","connectorId":1}', $4,
             $6, '{"status":"Accepted"}', now() + interval '1 hour', $5, now())`,
    [
      uuid,
      at.tenantUuid,
      at.controllerUuid,
      JSON.stringify({
        reservation_id: reservationId,
        id_tag: 'CARD-1',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      createdAt,
      status,
    ],
  );
  return uuid;
}

async function session(at: ChargePoint, transactionId: string): Promise<string> {
  const uuid = randomUUID();
  await dataSource.query(
    `INSERT INTO control.charging_sessions (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, started_at)
     VALUES ($1, $2, $3, $4, now())`,
    [uuid, at.tenantUuid, at.controllerUuid, transactionId],
  );
  return uuid;
}

/** The gateway's event for the charge point's Accepted answer to the reserve command. */
const accepted = (commandUuid: string, at: ChargePoint): Promise<void> =>
  reservations.recordAnswer({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid: at.tenantUuid,
    data: { commandUuid, reply: { outcome: 'answered', status: 'accepted', action: 'ReserveNow' } },
  } as unknown as OcppCallCompletedEvent);

const use = (at: ChargePoint, reservationId: number, transactionId: string): Promise<void> =>
  reservations.recordUse(at.tenantUuid, {
    controllerUuid: at.controllerUuid,
    transactionId,
    reservationId,
    startedAt: new Date().toISOString(),
  });

async function reservationOf(commandUuid: string) {
  const [row] = await dataSource.query<
    { status: string; ended_at: Date | null; charging_session_uuid: string | null }[]
  >(
    `SELECT status, ended_at, charging_session_uuid FROM control.reservations WHERE reserve_command_uuid = $1`,
    [commandUuid],
  );
  return row;
}

async function earlyUsesOf(at: ChargePoint): Promise<number> {
  const [{ count }] = await dataSource.query<{ count: string }[]>(
    'SELECT count(*) FROM control.reservation_early_uses WHERE controller_uuid = $1',
    [at.controllerUuid],
  );
  return Number(count);
}

describe('reservation uses', () => {
  it('a use heard after the acceptance ends the reservation as used, linked to the session', async () => {
    const at = chargePoint();
    const command = await reserveCommand(at, 11);
    await accepted(command, at);
    expect((await reservationOf(command)).status).toBe('active');
    const sessionUuid = await session(at, 'tx-1');
    await use(at, 11, 'tx-1');
    expect(await reservationOf(command)).toMatchObject({
      status: 'used',
      charging_session_uuid: sessionUuid,
    });
    expect(await earlyUsesOf(at)).toBe(0);
  });

  it('a use heard before the acceptance is kept aside, and the reservation starts as used', async () => {
    const at = chargePoint();
    const command = await reserveCommand(at, 12);
    const sessionUuid = await session(at, 'tx-2');
    await use(at, 12, 'tx-2');
    await use(at, 12, 'tx-2'); // redelivered: kept aside once
    expect(await earlyUsesOf(at)).toBe(1);

    await accepted(command, at);
    const reservation = await reservationOf(command);
    expect(reservation).toMatchObject({ status: 'used', charging_session_uuid: sessionUuid });
    expect(reservation.ended_at).not.toBeNull();
    expect(await earlyUsesOf(at)).toBe(0);

    // The acceptance again (a redelivery) changes nothing.
    await accepted(command, at);
    expect((await reservationOf(command)).status).toBe('used');
  });

  it('a use from before the reserve command was created is not a use of it', async () => {
    const at = chargePoint();
    await use(at, 13, 'tx-old');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const command = await reserveCommand(at, 13);
    await accepted(command, at);
    expect((await reservationOf(command)).status).toBe('active');
  });

  it('a redelivered use of a reservation already used is not kept aside for the next one', async () => {
    const at = chargePoint();
    const first = await reserveCommand(at, 14);
    await accepted(first, at);
    await use(at, 14, 'tx-3');
    // A new reservation with the same id is made, and the old use is delivered again before it is recorded.
    const second = await reserveCommand(at, 14);
    await use(at, 14, 'tx-3');
    expect(await earlyUsesOf(at)).toBe(0);
    await accepted(second, at);
    expect((await reservationOf(second)).status).toBe('active');
    expect((await reservationOf(first)).status).toBe('used');
  });

  // Its validity ended first (failed, connection_lost) and the charge point's Accepted came late: the command says
  // failed, so no reservation stands beside it.
  it('an acceptance heard after its command failed makes no reservation', async () => {
    const at = chargePoint();
    const command = await reserveCommand(at, 17, new Date(), 'failed');
    await accepted(command, at);
    expect(await reservationOf(command)).toBeUndefined();
  });

  it('drops kept-aside uses of the charge point after a day', async () => {
    const at = chargePoint();
    await use(at, 15, 'tx-4');
    await dataSource.query(
      `UPDATE control.reservation_early_uses SET received_at = now() - interval '25 hours' WHERE controller_uuid = $1`,
      [at.controllerUuid],
    );
    await use(at, 16, 'tx-5');
    const [{ ids }] = await dataSource.query<{ ids: number[] }[]>(
      'SELECT array_agg(reservation_id) AS ids FROM control.reservation_early_uses WHERE controller_uuid = $1',
      [at.controllerUuid],
    );
    expect(ids).toEqual([16]);
  });
});
