import type { DataSource } from 'typeorm';
import { LaneFreeFunction1763870000000 } from './1763870000000-lane-free-function.js';
import { type ControlSchemaUnderTest, controlSchemaUnderTest } from './control-schema-under-test.js';

let schema: ControlSchemaUnderTest;
let dataSource: DataSource;

beforeAll(async () => {
  schema = await controlSchemaUnderTest();
  dataSource = schema.dataSource;
});

afterAll(() => schema?.drop());

/** The delivery indexes of control.commands (those over open commands), name → definition. */
async function openIndexes(): Promise<Record<string, string>> {
  const rows = await dataSource.query<{ indexname: string; indexdef: string }[]>(
    `SELECT indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'control' AND tablename = 'commands' AND indexname LIKE 'commands_open_%'`,
  );
  return Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef.replace(/^.* USING /, '')]));
}

/** Whether control.lane_is_free exists. */
async function laneFunctionExists(): Promise<boolean> {
  const [row] = await dataSource.query<{ present: boolean }[]>(
    `SELECT EXISTS (SELECT FROM pg_proc WHERE proname = 'lane_is_free' AND pronamespace = 'control'::regnamespace)
              AS present`,
  );
  return row.present;
}

describe('the migrations of the delivery indexes and the lane function', () => {
  it('leave the lane, due-time and lease indexes and control.lane_is_free, and go down to the earlier ones and up again', async () => {
    const current = {
      commands_open_lane_idx: expect.stringMatching(/^btree \(controller_uuid, created_at, uuid\) WHERE/),
      commands_open_lane_due_idx: expect.stringMatching(
        /^btree \(controller_uuid, next_attempt_at\) WHERE .*next_attempt_at IS NOT NULL/,
      ),
      commands_open_leased_idx: expect.stringMatching(
        /^btree \(controller_uuid, lease_until\) WHERE .*lease_until IS NOT NULL/,
      ),
    };
    expect(await openIndexes()).toEqual(current);
    expect(await laneFunctionExists()).toBe(true);

    await schema.undoThrough(LaneFreeFunction1763870000000);
    expect(await laneFunctionExists()).toBe(false);
    expect(await openIndexes()).toEqual(current);
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await openIndexes()).toEqual({
      commands_open_lane_idx: current.commands_open_lane_idx,
      commands_open_lane_due_idx: expect.not.stringContaining('IS NOT NULL'),
      commands_open_due_idx: expect.stringMatching(/^btree \(next_attempt_at\) WHERE/),
    });

    await schema.migrate();
    expect(await openIndexes()).toEqual(current);
    expect(await laneFunctionExists()).toBe(true);
  });
});
