import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OneActiveSessionPerPlug1763885000000 } from './1763885000000-one-active-session-per-plug.js';
import { type ControlSchemaUnderTest, controlSchemaUnderTest } from './control-schema-under-test.js';

let schema: ControlSchemaUnderTest;
let dataSource: DataSource;

beforeAll(async () => {
  schema = await controlSchemaUnderTest();
  dataSource = schema.dataSource;
  await schema.undoThrough(OneActiveSessionPerPlug1763885000000);
});

afterAll(() => schema?.drop());

describe('the migration to one active session per plug', () => {
  it('ends the older of the sessions left open on one plug as superseded, then keeps it so', async () => {
    const tenant = randomUUID();
    const controller = randomUUID();
    const plug = randomUUID();
    const insert = (transactionId: string, startedAt: string, plugUuid: string | null = plug) =>
      dataSource.query(
        `INSERT INTO control.charging_sessions (uuid, tenant_uuid, controller_uuid, plug_uuid, ocpp_transaction_id, started_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), tenant, controller, plugUuid, transactionId, startedAt],
      );
    await insert('1', '2026-01-01T10:00:00Z');
    await insert('2', '2026-01-01T11:00:00Z');
    await insert('3', '2026-01-01T12:00:00Z');
    await insert('other-plug', '2026-01-01T09:00:00Z', randomUUID());
    await insert('no-plug-a', '2026-01-01T09:00:00Z', null);
    await insert('no-plug-b', '2026-01-01T09:30:00Z', null);

    await schema.migrate();

    const rows = await dataSource.query<
      { ocpp_transaction_id: string; stopped_at: Date | null; stop_reason: string | null }[]
    >(
      `SELECT ocpp_transaction_id, stopped_at, stop_reason FROM control.charging_sessions ORDER BY ocpp_transaction_id`,
    );
    const byId = Object.fromEntries(rows.map((row) => [row.ocpp_transaction_id, row]));
    expect(byId['3']).toMatchObject({ stopped_at: null, stop_reason: null });
    for (const older of ['1', '2']) {
      expect(byId[older]).toMatchObject({
        stopped_at: new Date('2026-01-01T12:00:00Z'),
        stop_reason: 'superseded',
      });
    }
    for (const untouched of ['other-plug', 'no-plug-a', 'no-plug-b']) {
      expect(byId[untouched]).toMatchObject({ stopped_at: null });
    }
    await expect(insert('4', '2026-01-01T13:00:00Z')).rejects.toThrow(
      /charging_sessions_one_active_per_plug/,
    );
  });
});
