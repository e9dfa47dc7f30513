import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every charge point event rewrites its controller's row (connection, boot, last seen) or its plug's (status). With
 * full pages each rewrite went to another page and added an entry to each of the table's eight indexes; with a fifth
 * of every page kept free, a rewrite that leaves the indexed columns alone (the common case: a reconnect is online
 * again, a status report repeats the status) stays on its page without touching an index (a heap-only tuple). Pages
 * written before this keep what room they have until their rows move or the table is rewritten.
 */
export class RoomForLiveStateUpdates1795701200000 implements MigrationInterface {
  name = 'RoomForLiveStateUpdates1795701200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE assets.controllers SET (fillfactor = 80)');
    await queryRunner.query('ALTER TABLE assets.plugs SET (fillfactor = 80)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE assets.controllers RESET (fillfactor)');
    await queryRunner.query('ALTER TABLE assets.plugs RESET (fillfactor)');
  }
}
