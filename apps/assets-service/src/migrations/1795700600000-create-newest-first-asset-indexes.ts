import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The asset lists whose default order (newest first, ties by uuid ascending) the existing indexes did not serve. */
const TABLES = ['locations', 'controllers', 'plugs', 'sensors'] as const;

/**
 * An index per asset list in its default order, `created_at DESC, uuid` (id tokens have one since they exist): a
 * page read by cursor starts its range at the cursor's key and reads only its own rows, and a first page needs no
 * sort. The ascending `(tenant_uuid, created_at, uuid)` indexes stay for `order_by=+created_at`.
 */
export class CreateNewestFirstAssetIndexes1795700600000 implements MigrationInterface {
  name = 'CreateNewestFirstAssetIndexes1795700600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(
        `CREATE INDEX ${table}_tenant_newest_idx ON assets.${table} (tenant_uuid, created_at DESC, uuid)`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`DROP INDEX assets.${table}_tenant_newest_idx`);
  }
}
