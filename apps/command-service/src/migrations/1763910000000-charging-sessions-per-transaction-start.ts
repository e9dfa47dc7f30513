import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A charge point may use a transaction id again (2.0.1 ids are its own, and one that reboots may count from 1
 * again): a session is one start of a transaction id, so (tenant, controller, transaction id) is no longer unique.
 * The key becomes (tenant, controller, transaction id, start), nulls not distinct: one session per start and at most
 * one whose start is not known yet. Every existing row keeps a unique key (each id had one session), and the index
 * serves the look-ups by transaction id the old constraint served. Down fails while an id has two sessions.
 */
export class ChargingSessionsPerTransactionStart1763910000000 implements MigrationInterface {
  name = 'ChargingSessionsPerTransactionStart1763910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX charging_sessions_transaction_start_key ON control.charging_sessions
         (tenant_uuid, controller_uuid, ocpp_transaction_id, started_at) NULLS NOT DISTINCT`,
    );
    await queryRunner.query(
      'ALTER TABLE control.charging_sessions DROP CONSTRAINT charging_sessions_transaction_key',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE control.charging_sessions ADD CONSTRAINT charging_sessions_transaction_key
         UNIQUE (tenant_uuid, controller_uuid, ocpp_transaction_id)`,
    );
    await queryRunner.query('DROP INDEX control.charging_sessions_transaction_start_key');
  }
}
