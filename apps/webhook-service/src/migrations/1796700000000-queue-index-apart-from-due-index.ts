import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The queues' index (IndexDeliveryQueuesByKey1796300000000) under a predicate of its own, `status <> 'delivered' AND
 * status <> 'failed'` (pending, by the table's CHECK), which the queue look-ups state and the index of due rows per
 * subscription (`status = 'pending'`) cannot be proven from. With both indexes partial on `status = 'pending'`, a
 * plan made from statistics taken while nothing was pending (a platform that had delivered everything, then a
 * receiver down) costs every pending-row index at one row and took the due rows' index, reading a subscription's
 * whole backlog per event fanned out and per candidate claimed. Only the queues' index can serve a queue look-up now.
 */
export class QueueIndexApartFromDueIndex1796700000000 implements MigrationInterface {
  name = 'QueueIndexApartFromDueIndex1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX deliveries_queue_idx
          ON webhooks.deliveries ((subscription_uuid::text || '/' || ordering_key), stream_seq)
       WHERE status <> 'delivered' AND status <> 'failed'`,
    );
    // As SmallStatisticsSampleForDeliveries1796600000000 set it for the index this one replaces.
    await queryRunner.query(`ALTER INDEX webhooks.deliveries_queue_idx ALTER COLUMN 1 SET STATISTICS 10`);
    await queryRunner.query(`DROP INDEX webhooks.deliveries_pending_queue_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_queue_idx
          ON webhooks.deliveries ((subscription_uuid::text || '/' || ordering_key), stream_seq)
       WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `ALTER INDEX webhooks.deliveries_pending_queue_idx ALTER COLUMN 1 SET STATISTICS 10`,
    );
    await queryRunner.query(`DROP INDEX webhooks.deliveries_queue_idx`);
  }
}
