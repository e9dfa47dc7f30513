import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claim's lease in a column of its own, `leased_until`, which no index holds: a claim then changes no indexed column,
 * so PostgreSQL updates the row in place (a heap-only tuple) instead of writing a new entry into each of the table's
 * indexes, as moving `next_attempt_at` did. That needs room on the row's page for its claimed version, and a claim
 * takes rows written together (one fan-out fills a page): pages are filled to half, so that every row of a page can be
 * claimed at once (at 80 %, a claim of forty fresh rows rewrote twelve in place). The `seq` UNIQUE constraint goes: no
 * statement looks a row up by `seq` (the list of a subscription's deliveries reads it through
 * deliveries_subscription_idx), and it cost an index entry per row version.
 */
export class LeaseDeliveriesApart1796400000000 implements MigrationInterface {
  name = 'LeaseDeliveriesApart1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD COLUMN leased_until timestamptz`);
    // A row claimed under the old scheme carries its lease in next_attempt_at, which stays as it is: it is due again
    // when that lease ends, as before.
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP CONSTRAINT deliveries_seq_key`);
    await queryRunner.query(`ALTER TABLE webhooks.deliveries SET (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries RESET (fillfactor)`);
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD CONSTRAINT deliveries_seq_key UNIQUE (seq)`);
    // A lease still running goes back where the old scheme kept it.
    await queryRunner.query(
      `UPDATE webhooks.deliveries SET next_attempt_at = leased_until
        WHERE status = 'pending' AND leased_until > next_attempt_at`,
    );
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP COLUMN leased_until`);
  }
}
