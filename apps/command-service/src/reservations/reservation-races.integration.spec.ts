import { randomUUID } from 'node:crypto';
import type { OcppCallCompletedEvent } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { lockWaiters, openSession, outcome } from '@cpc/testing';
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

/** A reserve (or cancel_reservation) command as command-service stored it when the API created it. */
async function command(at: ChargePoint, reservationId: number, type = 'reserve'): Promise<string> {
  const uuid = randomUUID();
  await dataSource.query(
    `INSERT INTO control.commands (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target,
                                   parameters, status, result, valid_until, created_at, completed_at)
     VALUES ($1, $2, $3, 'controller', $4, $4, '{"targetType":"controller","connectorId":1}', $5,
             'accepted', '{"status":"Accepted"}', now() + interval '1 hour', now(), now())`,
    [
      uuid,
      at.tenantUuid,
      type,
      at.controllerUuid,
      JSON.stringify({
        reservation_id: reservationId,
        id_tag: 'CARD-1',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    ],
  );
  return uuid;
}

/** The gateway's event for the charge point's Accepted answer to the command. */
const accepted = (commandUuid: string, at: ChargePoint, action = 'ReserveNow'): Promise<void> =>
  reservations.recordAnswer({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid: at.tenantUuid,
    data: { commandUuid, reply: { outcome: 'answered', status: 'accepted', action } },
  } as unknown as OcppCallCompletedEvent);

const use = (at: ChargePoint, reservationId: number, transactionId: string): Promise<void> =>
  reservations.recordUse(at.tenantUuid, {
    controllerUuid: at.controllerUuid,
    transactionId,
    reservationId,
    startedAt: new Date().toISOString(),
  });

/** A 2.0.1 ReservationStatusUpdate as the charge-point consumer hands it over (again, with the same time). */
const statusUpdate = (
  at: ChargePoint,
  reservationId: number,
  status: string,
  occurredAt = new Date().toISOString(),
): Promise<void> =>
  reservations.recordStatusUpdate({
    eventId: randomUUID(),
    occurredAt,
    tenantUuid: at.tenantUuid,
    data: { controllerUuid: at.controllerUuid, reservationId, status },
  });

async function reservationsOf(at: ChargePoint) {
  return dataSource.query<{ uuid: string; status: string; reserve_command_uuid: string }[]>(
    `SELECT uuid, status, reserve_command_uuid FROM control.reservations
      WHERE tenant_uuid = $1 AND controller_uuid = $2 ORDER BY created_at, uuid`,
    [at.tenantUuid, at.controllerUuid],
  );
}

async function earlyUsesOf(at: ChargePoint): Promise<number> {
  const [{ count }] = await dataSource.query<{ count: number }[]>(
    'SELECT count(*)::int AS count FROM control.reservation_early_uses WHERE tenant_uuid = $1 AND controller_uuid = $2',
    [at.tenantUuid, at.controllerUuid],
  );
  return count;
}

describe('reservations: redelivered and reordered reports', () => {
  it('a redelivered acceptance, even handled at once with the first, makes one reservation', async () => {
    const at = chargePoint();
    const reserve = await command(at, 5);
    const results = await Promise.all([outcome(accepted(reserve, at)), outcome(accepted(reserve, at))]);
    expect(results.map((result) => result.error)).toEqual([undefined, undefined]);
    await accepted(reserve, at);
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['active']);
  });

  it('a status report after the reservation ended (used) changes nothing', async () => {
    const at = chargePoint();
    const reserve = await command(at, 6);
    await accepted(reserve, at);
    await use(at, 6, 'tx-6');
    await statusUpdate(at, 6, 'Removed');
    await statusUpdate(at, 6, 'Expired');
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['used']);
  });

  it('a second accepted reserve of the same id replaces the first', async () => {
    const at = chargePoint();
    const first = await command(at, 7);
    await accepted(first, at);
    const second = await command(at, 7);
    await accepted(second, at);
    const rows = await reservationsOf(at);
    expect(Object.fromEntries(rows.map((row) => [row.reserve_command_uuid, row.status]))).toEqual({
      [first]: 'replaced',
      [second]: 'active',
    });
  });

  // An end heard before the acceptance is kept aside for it (reservation_early_ends), as a use is, and ends it.
  it('a status report redelivered after it ended its reservation ends no later one of the same id', async () => {
    const at = chargePoint();
    await accepted(await command(at, 12), at);
    const next = await command(at, 12);
    const removedAt = new Date().toISOString();
    await statusUpdate(at, 12, 'Removed', removedAt);
    await statusUpdate(at, 12, 'Removed', removedAt);
    await accepted(next, at);
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['removed', 'active']);
  });

  it('a status report heard before the acceptance still ends the reservation', async () => {
    const at = chargePoint();
    const reserve = await command(at, 8);
    await statusUpdate(at, 8, 'Removed');
    await accepted(reserve, at);
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['removed']);
  });

  // The acceptance and a use of its id take turns (lockReservationId): had the use committed while the acceptance was
  // written, it found no active reservation and was kept aside, and the acceptance, whose snapshot was older, never
  // saw it: the reservation stayed active.
  it('a use recorded while the acceptance is being written is not lost', async () => {
    const at = chargePoint();
    const reserve = await command(at, 9);
    const holder = await openSession(dataSource);
    try {
      // A redelivered acceptance on another instance, not committed yet: this one's INSERT waits on its key.
      await holder.query(
        `INSERT INTO control.reservations (uuid, tenant_uuid, controller_uuid, reservation_id, id_tag, expires_at,
                                           status, reserve_command_uuid, created_at)
         VALUES ($1, $2, $3, 9, 'CARD-1', now() + interval '1 hour', 'active', $4, now())`,
        [randomUUID(), at.tenantUuid, at.controllerUuid, reserve],
      );
      const acceptance = outcome(accepted(reserve, at));
      await lockWaiters(dataSource, 1);
      const using = outcome(use(at, 9, 'tx-9'));
      // The use waits for the acceptance, or (without the lock) is done before it.
      await Promise.race([using, lockWaiters(dataSource, 2)]);
      await holder.rollbackTransaction();
      expect((await acceptance).error).toBeUndefined();
      expect((await using).error).toBeUndefined();
    } finally {
      await holder.release();
    }
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['used']);
    expect(await earlyUsesOf(at)).toBe(0);
  });
});

describe('reservations: tenancy', () => {
  it("another tenant's reservation is not found by uuid, exactly like a missing one", async () => {
    const at = chargePoint();
    const reserve = await command(at, 10);
    await accepted(reserve, at);
    const [row] = await reservationsOf(at);
    await expect(reservations.get(at.tenantUuid, row.uuid)).resolves.toMatchObject({ status: 'active' });
    await expect(reservations.get(randomUUID(), row.uuid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a use, a status report or a cancel of another tenant does not end this tenant's reservation", async () => {
    const at = chargePoint();
    const other = { tenantUuid: randomUUID(), controllerUuid: at.controllerUuid };
    await accepted(await command(at, 11), at);
    await use(other, 11, 'tx-11');
    await statusUpdate(other, 11, 'Removed');
    await accepted(await command(other, 11, 'cancel_reservation'), other, 'CancelReservation');
    expect((await reservationsOf(at)).map((row) => row.status)).toEqual(['active']);
  });

  // A use prunes kept-aside uses of its own tenant only.
  it("a use prunes only its own tenant's kept-aside uses", async () => {
    const at = chargePoint();
    const other = { tenantUuid: randomUUID(), controllerUuid: at.controllerUuid };
    await dataSource.query(
      `INSERT INTO control.reservation_early_uses (tenant_uuid, controller_uuid, reservation_id, transaction_id,
                                                   used_at, received_at)
       VALUES ($1, $2, 12, 'tx-old', now() - interval '2 days', now() - interval '2 days')`,
      [other.tenantUuid, other.controllerUuid],
    );
    await use(at, 12, 'tx-12');
    expect(await earlyUsesOf(other)).toBe(1);
  });
});
