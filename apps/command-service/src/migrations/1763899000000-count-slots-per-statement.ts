import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Count slots drawn per statement: a statement moves all its counts in one slot it draws (and its exit slot), instead
 * of each command in the slot of its uuid (control.command_count_slot), so a batch moves one row per count instead of
 * one per command. Readers sum every slot, so the rows need no change. Undone, the counts are recounted from the
 * commands, each in the slot of its uuid, as the code before expects (it takes a command's exit from that slot).
 */
export class CountSlotsPerStatement1763899000000 implements MigrationInterface {
  name = 'CountSlotsPerStatement1763899000000';

  async up(): Promise<void> {
    // Nothing to change: any slot may hold any command's count.
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE control.commands IN SHARE MODE');
    await queryRunner.query('LOCK TABLE control.command_counts IN EXCLUSIVE MODE');
    await queryRunner.query('DELETE FROM control.command_counts');
    await queryRunner.query(`
      INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, slot, count)
      SELECT tenant_uuid, target_type, type, status, control.command_count_slot(uuid), count(*)
        FROM control.commands GROUP BY 1, 2, 3, 4, 5`);
  }
}
