import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counts leaving a status in slots of their own: a command entering a status is counted +1 in its slot (0–31, as
 * before), one leaving it −1 in its slot + 32, and readers sum over all of them. The batches that end commands then
 * never touch a row that creations write (`pending` in slots 0–31), so a creation no longer waits for such a batch's
 * commit. A slot of entries never goes below 0, one of exits never above 0. Nothing is recounted: a command created
 * before still leaves its status through the exit slot.
 */
export class CountExitsInOwnSlots1763897000000 implements MigrationInterface {
  name = 'CountExitsInOwnSlots1763897000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.command_counts DROP CONSTRAINT command_counts_count_check');
    await queryRunner.query(`
      ALTER TABLE control.command_counts ADD CONSTRAINT command_counts_entries_and_exits
        CHECK (CASE WHEN slot < 32 THEN count >= 0 ELSE count <= 0 END)`);
    await queryRunner.query(moveCountsFunction(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE control.command_counts IN EXCLUSIVE MODE');
    await queryRunner.query(`
      UPDATE control.command_counts entry SET count = entry.count + exit.count
        FROM control.command_counts exit
       WHERE exit.slot >= 32 AND entry.slot = exit.slot - 32 AND entry.tenant_uuid = exit.tenant_uuid
         AND entry.target_type = exit.target_type AND entry.type = exit.type AND entry.status = exit.status`);
    await queryRunner.query('DELETE FROM control.command_counts WHERE slot >= 32');
    await queryRunner.query(
      'ALTER TABLE control.command_counts DROP CONSTRAINT command_counts_entries_and_exits',
    );
    await queryRunner.query(
      'ALTER TABLE control.command_counts ADD CONSTRAINT command_counts_count_check CHECK (count >= 0)',
    );
    await queryRunner.query(moveCountsFunction(false));
  }
}

/**
 * control.move_command_counts (as MoveCommandCountsFunction1763830000000 made it): with `exitSlots`, a decrement too
 * upserts (its exit slot's row may not be there yet); without, it updates the row its increment made.
 */
function moveCountsFunction(exitSlots: boolean): string {
  const upsert = `INSERT INTO control.command_counts AS c (tenant_uuid, target_type, type, status, slot, count)
            VALUES (tenant_uuids[i], target_types[i], types[i], statuses[i], slots[i], deltas[i])
            ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = c.count + EXCLUDED.count;`;
  const body = exitSlots
    ? upsert
    : `IF deltas[i] < 0 THEN
            UPDATE control.command_counts SET count = count + deltas[i]
             WHERE tenant_uuid = tenant_uuids[i] AND target_type = target_types[i] AND type = types[i]
               AND status = statuses[i] AND slot = slots[i];
          ELSE
            ${upsert}
          END IF;`;
  return `
      CREATE OR REPLACE FUNCTION control.move_command_counts(
        tenant_uuids uuid[], target_types text[], types text[], statuses text[], slots smallint[], deltas bigint[]
      ) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        FOR i IN 1 .. coalesce(array_length(deltas, 1), 0) LOOP
          ${body}
        END LOOP;
      END
      $$`;
}
