import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A local list update goes to the charge point in parts (as many entries per SendLocalList as it takes), each part
 * installing the next version, and every accepted part is recorded: `part_ends` keeps where the parts end (counts of
 * the update's items, tokens then removals) so a repeated delivery and a late report cut it the same way, and
 * `base_entries` the list a differential update was prepared against, from which the list any number of accepted
 * parts leave is computed. Updates prepared before hold '{}' (one part).
 */
export class LocalListUpdateParts1795701000000 implements MigrationInterface {
  name = 'LocalListUpdateParts1795701000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE assets.local_list_updates
        ADD COLUMN part_ends integer[] NOT NULL DEFAULT '{}',
        ADD COLUMN base_entries jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE assets.local_list_updates DROP COLUMN part_ends, DROP COLUMN base_entries`);
  }
}
