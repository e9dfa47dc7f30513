import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spreads each per-tenant count over 32 rows (`slot`, chosen by the command's uuid): every transaction that creates
 * a command or changes its status updated the same row of its (tenant, target type, type, status), so all of a
 * tenant's writers queued behind each other's commits. A command is always counted in its own slot, so a decrement
 * finds the row its increment made; readers sum over the slots. The existing counts are recomputed per slot.
 */
export class ShardCommandCounts1763815000000 implements MigrationInterface {
  name = 'ShardCommandCounts1763815000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The slot of a command: its uuid's last byte modulo 32 (commandCountSlot in command-counts.ts computes the same).
    await queryRunner.query(`
      CREATE FUNCTION control.command_count_slot(command_uuid uuid) RETURNS smallint
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT (get_byte(uuid_send(command_uuid), 15) % 32)::smallint $$`);
    // No command changes while its count moves to its slot.
    await queryRunner.query('LOCK TABLE control.commands IN SHARE MODE');
    await queryRunner.query('DELETE FROM control.command_counts');
    await queryRunner.query('ALTER TABLE control.command_counts DROP CONSTRAINT command_counts_pkey');
    await queryRunner.query('ALTER TABLE control.command_counts ADD COLUMN slot smallint NOT NULL');
    await queryRunner.query(
      'ALTER TABLE control.command_counts ADD PRIMARY KEY (tenant_uuid, target_type, type, status, slot)',
    );
    await queryRunner.query(`
      INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, slot, count)
      SELECT tenant_uuid, target_type, type, status, control.command_count_slot(uuid), count(*)
        FROM control.commands
       GROUP BY tenant_uuid, target_type, type, status, control.command_count_slot(uuid)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE control.commands IN SHARE MODE');
    await queryRunner.query('DELETE FROM control.command_counts');
    await queryRunner.query('ALTER TABLE control.command_counts DROP CONSTRAINT command_counts_pkey');
    await queryRunner.query('ALTER TABLE control.command_counts DROP COLUMN slot');
    await queryRunner.query(
      'ALTER TABLE control.command_counts ADD PRIMARY KEY (tenant_uuid, target_type, type, status)',
    );
    await queryRunner.query(`
      INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, count)
      SELECT tenant_uuid, target_type, type, status, count(*) FROM control.commands
       GROUP BY tenant_uuid, target_type, type, status`);
    await queryRunner.query('DROP FUNCTION control.command_count_slot(uuid)');
  }
}
