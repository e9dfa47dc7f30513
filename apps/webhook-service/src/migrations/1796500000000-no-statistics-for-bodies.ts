import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No statistics for the columns of webhooks.deliveries that no statement filters, joins or sorts by: the request body
 * and the last error. ANALYZE (which TableStatisticsKeeper runs as the table doubles) spent most of its time on the
 * bodies' sample, for statistics no plan reads.
 */
export class NoStatisticsForBodies1796500000000 implements MigrationInterface {
  name = 'NoStatisticsForBodies1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE webhooks.deliveries ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN last_error SET STATISTICS 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE webhooks.deliveries ALTER COLUMN body SET STATISTICS -1, ALTER COLUMN last_error SET STATISTICS -1`,
    );
  }
}
