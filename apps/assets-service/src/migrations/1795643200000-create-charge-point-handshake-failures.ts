import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed charge point handshakes per counter key ('pair:<tenant>/<identity>@<address>' or
 * 'identity:<tenant>/<identity>') in fixed windows, shared by every ocpp-gateway replica (HandshakeFailureCounters).
 */
export class CreateChargePointHandshakeFailures1795643200000 implements MigrationInterface {
  name = 'CreateChargePointHandshakeFailures1795643200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.charge_point_handshake_failures (
        counter_key text PRIMARY KEY,
        failures integer NOT NULL CHECK (failures >= 0),
        window_started_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX charge_point_handshake_failures_window_idx
         ON assets.charge_point_handshake_failures (window_started_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assets.charge_point_handshake_failures`);
  }
}
