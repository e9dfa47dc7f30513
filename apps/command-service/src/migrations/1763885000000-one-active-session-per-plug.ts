import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A plug has at most one active session. Charge points that rebooted, or never read the answer to a start, left
 * older sessions open beside newer ones on the same plug: those end as superseded, at the start of the newest, and a
 * partial unique index keeps it so. `rebooted_at` marks the sessions that were open when their charge point booted,
 * until a message of the session shows it survived or an Available on its connector ends it.
 */
export class OneActiveSessionPerPlug1763885000000 implements MigrationInterface {
  name = 'OneActiveSessionPerPlug1763885000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE control.charging_sessions ADD COLUMN rebooted_at timestamptz`);
    await queryRunner.query(`
      WITH ranked AS (
        SELECT uuid,
               row_number() OVER newest_first AS rank,
               first_value(started_at) OVER newest_first AS newest_start
          FROM control.charging_sessions
         WHERE stopped_at IS NULL AND plug_uuid IS NOT NULL
        WINDOW newest_first AS (PARTITION BY plug_uuid ORDER BY started_at DESC NULLS LAST, created_at DESC, uuid DESC)
      )
      UPDATE control.charging_sessions s
         SET stopped_at = COALESCE(GREATEST(s.started_at, ranked.newest_start), now()),
             stop_reason = 'superseded',
             updated_at = now()
        FROM ranked
       WHERE s.uuid = ranked.uuid AND ranked.rank > 1`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX charging_sessions_one_active_per_plug
         ON control.charging_sessions (plug_uuid) WHERE stopped_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX control.charging_sessions_one_active_per_plug');
    await queryRunner.query('ALTER TABLE control.charging_sessions DROP COLUMN rebooted_at');
  }
}
