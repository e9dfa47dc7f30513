import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OneLaneFunction1763898000000 } from './1763898000000-one-lane-function.js';
import { type ControlSchemaUnderTest, controlSchemaUnderTest } from './control-schema-under-test.js';

let schema: ControlSchemaUnderTest;
let dataSource: DataSource;
const lane = randomUUID();
const head = randomUUID();
const next = randomUUID();

beforeAll(async () => {
  schema = await controlSchemaUnderTest();
  dataSource = schema.dataSource;
  // A lane of two open commands: its head sent (not leased), the next one pending behind it.
  await dataSource.query(
    `INSERT INTO control.commands
       (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status, valid_until,
        created_at, next_attempt_at, attempts)
     SELECT uuid, $2, 'reset', 'controller', $1, $1, '{"targetType":"controller"}', '{}', status,
            now() + interval '1 hour', now() + position * interval '1 millisecond', now(), 0
       FROM unnest($3::uuid[], $4::varchar[]) WITH ORDINALITY AS c(uuid, status, position)`,
    [lane, randomUUID(), [head, next], ['sent', 'pending']],
  );
});

afterAll(() => schema?.drop());

/** One answer of a lane function, in a transaction of its own (the advisory lock it takes ends with it). */
async function answer(call: string, values: unknown[]): Promise<boolean> {
  const [{ free }] = await dataSource.query<{ free: boolean }[]>(`SELECT ${call} AS free`, values);
  return free;
}

/** The lane functions of the control schema, as their signatures. */
async function laneFunctions(): Promise<string[]> {
  const rows = await dataSource.query<{ signature: string }[]>(
    `SELECT oid::regprocedure::text AS signature FROM pg_proc
      WHERE proname LIKE 'lane_is_free%' AND pronamespace = 'control'::regnamespace ORDER BY 1`,
  );
  return rows.map((row) => row.signature);
}

describe('OneLaneFunction1763898000000', () => {
  it('decides a lane in one function, the commands a statement ends counted as ended', async () => {
    expect(await laneFunctions()).toEqual([
      'control.lane_is_free(uuid,uuid,uuid[])',
      'control.lane_is_free_after(uuid,uuid,uuid[])',
    ]);
    // A claim of the next command: the head is still open.
    expect(await answer('control.lane_is_free($1, $2)', [lane, next])).toBe(false);
    // The batch that ends the head hands the next one over; so does a replica of the release before.
    expect(await answer('control.lane_is_free($1, $2, $3)', [lane, next, [head]])).toBe(true);
    expect(await answer('control.lane_is_free_after($1, $2, $3)', [lane, next, [head]])).toBe(true);
    // A creation leasing its command: the lane has open commands, unless both are being ended.
    expect(await answer('control.lane_is_free($1, NULL)', [lane])).toBe(false);
    expect(await answer('control.lane_is_free($1, NULL, $2)', [lane, [head, next]])).toBe(true);
  });

  it('goes down to the two functions of before, answering alike, and up again', async () => {
    await schema.undoThrough(OneLaneFunction1763898000000);
    expect(await laneFunctions()).toEqual([
      'control.lane_is_free(uuid,uuid)',
      'control.lane_is_free_after(uuid,uuid,uuid[])',
    ]);
    expect(await answer('control.lane_is_free($1, $2)', [lane, next])).toBe(false);
    expect(await answer('control.lane_is_free_after($1, $2, $3)', [lane, next, [head]])).toBe(true);
    expect(await answer('control.lane_is_free($1, NULL)', [lane])).toBe(false);

    await schema.migrate();
    expect(await laneFunctions()).toEqual([
      'control.lane_is_free(uuid,uuid,uuid[])',
      'control.lane_is_free_after(uuid,uuid,uuid[])',
    ]);
  });
});
