import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the live state consumer needs to put connection changes, boots and plug statuses in order whatever order they
 * are handled in (charge-points/charge-point-state.ts):
 *
 * - `connection_opened_at`/`_seq`: the key (occurredAt, stream sequence) of the connect of the connection the
 *   controller is (or was last) known by, kept while offline: a connect applies when newer than it, so a replaced
 *   connection's disconnect no longer blocks the connect of the connection that replaced it.
 * - `connection_closed_id`/`_at`/`_seq`: the newest disconnect handled that was newer than the connection then known
 *   (a null id: whatever connection was open), so that its connect, handled after it, comes in closed.
 * - `booted_seq`, and the plugs' `status_updated_seq`: the stream sequence of the boot and status shown, which breaks
 *   ties of the same millisecond by stream order, also for a redelivery.
 *
 * Rows written before carry no sequences (the rules count them as 0). An online controller's connection opened when
 * its connection last changed; an offline one's last change (a disconnect) is kept as a disconnect of whatever
 * connection, so connects older than it stay ignored, as they were.
 */
export class ConnectionOrderByConnection1795701400000 implements MigrationInterface {
  name = 'ConnectionOrderByConnection1795701400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE assets.controllers
        ADD COLUMN connection_opened_at timestamptz,
        ADD COLUMN connection_opened_seq bigint,
        ADD COLUMN connection_closed_id varchar(100),
        ADD COLUMN connection_closed_at timestamptz,
        ADD COLUMN connection_closed_seq bigint,
        ADD COLUMN booted_seq bigint`);
    await queryRunner.query(`ALTER TABLE assets.plugs ADD COLUMN status_updated_seq bigint`);
    await queryRunner.query(`
      UPDATE assets.controllers
         SET connection_opened_at = CASE WHEN connection_status = 'online' THEN connection_changed_at END,
             connection_closed_at = CASE WHEN connection_status = 'online' THEN NULL ELSE connection_changed_at END
       WHERE connection_changed_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets.plugs DROP COLUMN status_updated_seq`);
    await queryRunner.query(`
      ALTER TABLE assets.controllers
        DROP COLUMN connection_opened_at,
        DROP COLUMN connection_opened_seq,
        DROP COLUMN connection_closed_id,
        DROP COLUMN connection_closed_at,
        DROP COLUMN connection_closed_seq,
        DROP COLUMN booted_seq`);
  }
}
