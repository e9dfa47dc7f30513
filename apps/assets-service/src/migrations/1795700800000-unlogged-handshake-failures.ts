import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The handshake failure counters need no write-ahead log: every handshake writes them twice (a slot taken, then given
 * back), and each of those commits waited for a WAL flush, which in a reconnect storm held the pool's connections
 * more than any other statement. Unlogged, a crash of PostgreSQL (not a clean restart) or a fail-over empties the
 * table: the failure windows in progress start again, a loss of at most OCPP_HANDSHAKE_FAILURE_WINDOW_MS of counting.
 */
export class UnloggedHandshakeFailures1795700800000 implements MigrationInterface {
  name = 'UnloggedHandshakeFailures1795700800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE assets.charge_point_handshake_failures SET UNLOGGED');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE assets.charge_point_handshake_failures SET LOGGED');
  }
}
