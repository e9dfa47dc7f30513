import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateServiceSchema } from '@cpc/database';
import { createTestDatabase, type TestDatabase } from '@cpc/testing';
import type { DataSource } from 'typeorm';
import { CONTROL_MIGRATIONS, controlDataSourceOptions } from '../data-source.js';
import { ShardCommandCounts1763815000000 } from '../migrations/1763815000000-shard-command-counts.js';
import { CountExitsInOwnSlots1763897000000 } from '../migrations/1763897000000-count-exits-in-own-slots.js';
import { CountSlotsPerStatement1763899000000 } from '../migrations/1763899000000-count-slots-per-statement.js';
import { countCommands, type CountedChange, countStatusChanges } from './command-counts.js';
import { COUNT_MISMATCHES_SQL } from './testing/count-mismatches.js';

let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createServiceDataSource({ ...controlDataSourceOptions(database.url), poolSize: 20 });
  await migrateServiceSchema(dataSource);
  await dataSource.initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** Fills control.commands with `count` commands of the tenant, statuses taken in turn (a terminal one has a result). */
const INSERT_COMMANDS = `
  INSERT INTO control.commands (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters,
                                status, result, valid_until, created_at, completed_at)
  SELECT gen_random_uuid(), $1, 'soft_reset', 'controller', t, t, '{}', '{}', s.status,
         CASE WHEN s.status IN ('pending', 'sent') THEN NULL ELSE '{}'::jsonb END, now(), now(),
         CASE WHEN s.status IN ('pending', 'sent') THEN NULL ELSE now() END
    FROM generate_series(1, $2) AS i, gen_random_uuid() AS t,
         LATERAL (SELECT (ARRAY['pending', 'sent', 'accepted'])[1 + i % 3] AS status) s`;

/** Counts that differ from the commands, per (tenant, target type, type, status). */
async function mismatches(source: DataSource): Promise<number> {
  const [{ mismatches }] = await source.query<{ mismatches: number }[]>(COUNT_MISMATCHES_SQL);
  return mismatches;
}

describe('per-tenant command counts', () => {
  it('move all the counts of a statement in one slot: one row per count, not one per command', async () => {
    const tenantUuid = randomUUID();
    const changes = Array.from({ length: 50 }, () => ({
      row: {
        uuid: randomUUID(),
        tenant_uuid: tenantUuid,
        target_type: 'controller',
        type: 'soft_reset',
        status: 'sent',
      },
      previousStatus: 'pending',
    }));
    await dataSource.transaction((manager) => countStatusChanges(manager, changes, 5));
    const rows = await dataSource.query<{ status: string; slot: number; count: string }[]>(
      'SELECT status, slot, count FROM control.command_counts WHERE tenant_uuid = $1 ORDER BY slot',
      [tenantUuid],
    );
    expect(rows).toEqual([
      { status: 'sent', slot: 5, count: '50' },
      { status: 'pending', slot: 37, count: '-50' },
    ]);
  });

  it('stay exact under concurrent transactions that each move many commands, in any order, without deadlocks', async () => {
    const tenantUuid = randomUUID();
    const row = (uuid: string, type: string, status: string) => ({
      uuid,
      tenant_uuid: tenantUuid,
      target_type: 'controller',
      type,
      status,
    });
    const commands = Array.from({ length: 240 }, (_, index) => ({
      uuid: randomUUID(),
      type: index % 2 === 0 ? 'soft_reset' : 'clear_cache',
    }));
    const batches = (size: number) =>
      Array.from({ length: commands.length / size }, (_, index) =>
        commands.slice(index * size, (index + 1) * size),
      );
    // Every transaction gets its changes in another order; the count rows are still locked in the one global order.
    const shuffled = <T>(items: T[]) =>
      items
        .map((item) => ({ item, key: Math.random() }))
        .sort((a, b) => a.key - b.key)
        .map(({ item }) => item);
    const step = (size: number, change: (command: (typeof commands)[number]) => CountedChange) =>
      Promise.all(
        batches(size).map((batch) =>
          dataSource.transaction((manager) => countStatusChanges(manager, shuffled(batch.map(change)))),
        ),
      );
    await step(4, (command) => ({ row: row(command.uuid, command.type, 'pending'), previousStatus: null }));
    // Batches of 12 overlap every batch of the step before them in slots.
    await Promise.all([
      step(12, (command) => ({ row: row(command.uuid, command.type, 'sent'), previousStatus: 'pending' })),
      step(5, (command) => ({ row: row(randomUUID(), command.type, 'pending'), previousStatus: null })),
    ]);
    await step(6, (command) => ({
      row: row(command.uuid, command.type, command.uuid < '8' ? 'accepted' : 'failed'),
      previousStatus: 'sent',
    }));

    const accepted = commands.filter((command) => command.uuid < '8');
    expect(await countCommands(dataSource, tenantUuid, {})).toBe(480);
    expect(await countCommands(dataSource, tenantUuid, { status: 'pending' })).toBe(240);
    expect(await countCommands(dataSource, tenantUuid, { status: 'sent' })).toBe(0);
    expect(await countCommands(dataSource, tenantUuid, { status: 'accepted' })).toBe(accepted.length);
    expect(
      await countCommands(dataSource, tenantUuid, {
        type: 'soft_reset',
        status: 'accepted',
        target_type: 'controller',
      }),
    ).toBe(accepted.filter((command) => command.type === 'soft_reset').length);
    const [{ slots }] = await dataSource.query<{ slots: string }[]>(
      `SELECT count(DISTINCT slot) AS slots FROM control.command_counts WHERE tenant_uuid = $1 AND status = 'pending'`,
      [tenantUuid],
    );
    expect(Number(slots)).toBeGreaterThan(1);
  });

  it('never make a creation wait for a transaction moving commands out of its status', async () => {
    const tenantUuid = randomUUID();
    const row = (uuid: string, status: string) => ({
      uuid,
      tenant_uuid: tenantUuid,
      target_type: 'controller',
      type: 'soft_reset',
      status,
    });
    const leaving = randomUUID();
    const entering = randomUUID();
    // Both statements draw the same slot: the ending's exit and the creation's entry are rows apart all the same.
    const slot = 7;
    await dataSource.transaction((manager) =>
      countStatusChanges(manager, [{ row: row(leaving, 'pending'), previousStatus: null }], slot),
    );
    const ending = dataSource.createQueryRunner();
    await ending.connect();
    try {
      await ending.startTransaction();
      await countStatusChanges(
        ending.manager,
        [{ row: row(leaving, 'accepted'), previousStatus: 'pending' }],
        slot,
      );
      // While that transaction holds its count rows, a creation counts a command in the same slot.
      await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '1s'`);
        await countStatusChanges(manager, [{ row: row(entering, 'pending'), previousStatus: null }], slot);
      });
      await ending.commitTransaction();
    } finally {
      await ending.release();
    }
    expect(await countCommands(dataSource, tenantUuid, { status: 'pending' })).toBe(1);
    expect(await countCommands(dataSource, tenantUuid, { status: 'accepted' })).toBe(1);
  });
});

describe('the migrations to slotted counts and to exit slots', () => {
  it('recount the existing commands, each in its slot, and back', async () => {
    const before = await createTestDatabase();
    const old = createServiceDataSource({
      ...controlDataSourceOptions(before.url),
      migrations: CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(ShardCommandCounts1763815000000)),
    });
    const current = createServiceDataSource(controlDataSourceOptions(before.url));
    try {
      await migrateServiceSchema(old);
      await old.initialize();
      await old.query(INSERT_COMMANDS, [randomUUID(), 500]);
      await old.query(INSERT_COMMANDS, [randomUUID(), 70]);
      await old.query(
        `INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, count)
         SELECT tenant_uuid, target_type, type, status, count(*) FROM control.commands
          GROUP BY tenant_uuid, target_type, type, status`,
      );
      await old.destroy();
      await migrateServiceSchema(current);
      await current.initialize();
      expect(await mismatches(current)).toBe(0);
      // The open commands can now leave their status: each decrement finds its slot's row.
      const open = await current.query<CountedChange['row'][]>(
        `SELECT uuid, tenant_uuid, target_type, type, 'accepted' AS status FROM control.commands
          WHERE status = 'sent'`,
      );
      await current.transaction((manager) =>
        countStatusChanges(
          manager,
          open.map((row) => ({ row, previousStatus: 'sent' })),
        ),
      );
      await current.query(
        `UPDATE control.commands SET status = 'accepted', result = '{}', completed_at = now() WHERE status = 'sent'`,
      );
      expect(await mismatches(current)).toBe(0);
      const [{ exits }] = await current.query<{ exits: number }[]>(
        'SELECT count(*)::int AS exits FROM control.command_counts WHERE slot >= 32 AND count < 0',
      );
      expect(exits).toBeGreaterThan(0);

      // Down again: first recounted, each command in the slot of its uuid; then the exits folded into their entries'
      // slots (none are left); then one row per (tenant, target type, type, status), the sums of the slots.
      const runner = current.createQueryRunner();
      try {
        await runner.startTransaction();
        await new CountSlotsPerStatement1763899000000().down(runner);
        await runner.commitTransaction();
        expect(await mismatches(current)).toBe(0);
        const [{ perUuid }] = await current.query<{ perUuid: number }[]>(
          `SELECT count(*)::int AS "perUuid" FROM control.command_counts c
            WHERE c.count = (SELECT count(*) FROM control.commands m
                              WHERE m.tenant_uuid = c.tenant_uuid AND m.target_type = c.target_type
                                AND m.type = c.type AND m.status = c.status
                                AND control.command_count_slot(m.uuid) = c.slot)`,
        );
        const [{ rows }] = await current.query<{ rows: number }[]>(
          'SELECT count(*)::int AS rows FROM control.command_counts',
        );
        expect(perUuid).toBe(rows);
        await runner.startTransaction();
        await new CountExitsInOwnSlots1763897000000().down(runner);
        await runner.commitTransaction();
        expect(await mismatches(current)).toBe(0);
        const [{ left }] = await current.query<{ left: number }[]>(
          'SELECT count(*)::int AS left FROM control.command_counts WHERE slot >= 32 OR count < 0',
        );
        expect(left).toBe(0);
        await runner.startTransaction();
        await new ShardCommandCounts1763815000000().down(runner);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      const [{ differing }] = await current.query<{ differing: string }[]>(
        `WITH actual AS (
           SELECT tenant_uuid, target_type, type, status, count(*) AS count FROM control.commands
            GROUP BY tenant_uuid, target_type, type, status)
         SELECT count(*) AS differing FROM actual FULL JOIN control.command_counts counted
           USING (tenant_uuid, target_type, type, status)
          WHERE actual.count IS DISTINCT FROM counted.count`,
      );
      expect(differing).toBe('0');
    } finally {
      if (old.isInitialized) await old.destroy();
      if (current.isInitialized) await current.destroy();
      await before.drop();
    }
  });
});
