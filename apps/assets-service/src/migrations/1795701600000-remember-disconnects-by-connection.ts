import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live state consumer remembers every disconnect handled before the connect of its connection (up to a bound,
 * charge-points/charge-point-state.ts), not only the newest: with two connections' disconnects both handled before
 * their connects, the one forgotten could be the newest connection's, which then came in online.
 *
 * - `connection_closed_earlier`: the remembered disconnects other than the newest, a JSON array (newest first) of
 *   {connectionId, at, sequence}; null when there are none. The newest stays in `connection_closed_id`/`_at`/`_seq`,
 *   where a replica of the earlier version, still running while this one rolls out, reads and writes it as before.
 *
 * Nullable without a default: adding it rewrites nothing, and existing rows remember what they did.
 */
export class RememberDisconnectsByConnection1795701600000 implements MigrationInterface {
  name = 'RememberDisconnectsByConnection1795701600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets.controllers ADD COLUMN connection_closed_earlier jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets.controllers DROP COLUMN connection_closed_earlier`);
  }
}
