import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ChargingSessionsPerTransactionStart1763910000000 } from './1763910000000-charging-sessions-per-transaction-start.js';
import { type ControlSchemaUnderTest, controlSchemaUnderTest } from './control-schema-under-test.js';

let schema: ControlSchemaUnderTest;
let dataSource: DataSource;

beforeAll(async () => {
  schema = await controlSchemaUnderTest();
  dataSource = schema.dataSource;
  await schema.undoThrough(ChargingSessionsPerTransactionStart1763910000000);
});

afterAll(() => schema?.drop());

describe('the migration to a session per start of a transaction id', () => {
  it('keeps every session as it was, then takes a second start of an id but not a repeat of one', async () => {
    const tenant = randomUUID();
    const controller = randomUUID();
    const insert = (transactionId: string, startedAt: string | null, stoppedAt: string | null = null) =>
      dataSource.query(
        `INSERT INTO control.charging_sessions
                (uuid, tenant_uuid, controller_uuid, ocpp_transaction_id, started_at, stopped_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), tenant, controller, transactionId, startedAt, stoppedAt],
      );
    await insert('1', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z');
    await insert('2', '2026-01-01T10:30:00Z');
    // Its end heard, its start not yet.
    await insert('3', null, '2026-01-01T11:00:00Z');
    const rows = () =>
      dataSource.query<{ uuid: string; ocpp_transaction_id: string }[]>(
        `SELECT uuid, ocpp_transaction_id FROM control.charging_sessions WHERE tenant_uuid = $1
          ORDER BY ocpp_transaction_id, started_at`,
        [tenant],
      );
    const before = await rows();

    await schema.migrate();

    expect(await rows()).toEqual(before);
    // The charge point uses id 1 again after a reboot: a second session.
    await insert('1', '2026-01-02T09:00:00Z');
    expect((await rows()).map((row) => row.ocpp_transaction_id)).toEqual(['1', '1', '2', '3']);
    // One session per start, and one whose start is not known yet per id.
    await expect(insert('1', '2026-01-02T09:00:00Z')).rejects.toThrow(
      /charging_sessions_transaction_start_key/,
    );
    await expect(insert('3', null)).rejects.toThrow(/charging_sessions_transaction_start_key/);
  });
});
