import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many commands each tenant has per (target_type, type, status): the list's total_pages without counting
 * millions of rows (an exact count of a large tenant is a scan of its whole index). Kept in the transactions that
 * create commands and change their status; filled from the existing rows here.
 */
export class CreateCommandCounts1763790000000 implements MigrationInterface {
  name = 'CreateCommandCounts1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.command_counts (
        tenant_uuid uuid NOT NULL,
        target_type varchar(20) NOT NULL,
        type varchar(32) NOT NULL,
        status varchar(10) NOT NULL,
        count bigint NOT NULL CHECK (count >= 0),
        PRIMARY KEY (tenant_uuid, target_type, type, status)
      )`);
    await queryRunner.query(`
      INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, count)
      SELECT tenant_uuid, target_type, type, status, count(*) FROM control.commands
       GROUP BY tenant_uuid, target_type, type, status`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE control.command_counts');
  }
}
