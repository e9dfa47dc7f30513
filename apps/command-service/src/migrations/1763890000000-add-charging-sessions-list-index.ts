import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order of the sessions list by default (newest start first, sessions whose start is not known yet last, ties by
 * uuid), as its cursor key spells it: a page read by cursor starts in this index at its key, so a deep page costs what
 * the first one does. The key's expressions must stay exactly those of chargingSessionsList.
 */
export class AddChargingSessionsListIndex1763890000000 implements MigrationInterface {
  name = 'AddChargingSessionsListIndex1763890000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX charging_sessions_list_idx ON control.charging_sessions
         (tenant_uuid, ((started_at IS NOT NULL)::integer) DESC, (COALESCE(started_at, 'epoch'::timestamptz)) DESC,
          uuid DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX control.charging_sessions_list_idx');
  }
}
