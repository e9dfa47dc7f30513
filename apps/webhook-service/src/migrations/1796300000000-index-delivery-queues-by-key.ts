import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery queue (one subscription's rows of one ordering key) found by one key, `subscription_uuid::text || '/' ||
 * ordering_key`: the claims ask for a queue's earlier pending rows by that expression, which no other index answers,
 * so their plans probe this index whatever the statistics say. Asked by (subscription, ordering key), a plan made from
 * statistics of a nearly empty table took the index of due rows per subscription for the subscription alone and read
 * all its pending rows for each candidate: under a backlog, quadratic.
 */
export class IndexDeliveryQueuesByKey1796300000000 implements MigrationInterface {
  name = 'IndexDeliveryQueuesByKey1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_queue_idx
          ON webhooks.deliveries ((subscription_uuid::text || '/' || ordering_key), stream_seq)
       WHERE status = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX webhooks.deliveries_pending_lane_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_lane_idx ON webhooks.deliveries (subscription_uuid, ordering_key, stream_seq)
        WHERE status = 'pending'`,
    );
    await queryRunner.query(`DROP INDEX webhooks.deliveries_pending_queue_idx`);
  }
}
