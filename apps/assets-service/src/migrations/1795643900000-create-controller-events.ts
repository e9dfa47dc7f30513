import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each controller's event log: connections, boots, status changes, firmware / diagnostics status and security events,
 * one row per gateway event (its id the key, so a redelivery adds nothing), read newest first per controller.
 * Rows go with their controller. The latest firmware and diagnostics status are also kept on the controller.
 */
export class CreateControllerEvents1795643900000 implements MigrationInterface {
  name = 'CreateControllerEvents1795643900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.controller_events (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        kind text NOT NULL,
        occurred_at timestamptz NOT NULL,
        details jsonb NOT NULL
      )`);
    await queryRunner.query(`
      ALTER TABLE assets.controllers
        ADD COLUMN firmware_status varchar(50),
        ADD COLUMN firmware_status_at timestamptz,
        ADD COLUMN diagnostics_status varchar(50),
        ADD COLUMN diagnostics_status_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX controller_events_newest_idx ON assets.controller_events
         (tenant_uuid, controller_uuid, occurred_at DESC, uuid)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE assets.controller_events');
    await queryRunner.query(`
      ALTER TABLE assets.controllers
        DROP COLUMN firmware_status, DROP COLUMN firmware_status_at,
        DROP COLUMN diagnostics_status, DROP COLUMN diagnostics_status_at`);
  }
}
