import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of webhooks.deliveries that statements filter, join, group or sort by, or return. */
export const SAMPLED_DELIVERY_COLUMNS = [
  'id',
  'seq',
  'tenant_uuid',
  'subscription_uuid',
  'event_id',
  'event_type',
  'ordering_key',
  'stream_seq',
  'status',
  'attempts',
  'next_attempt_at',
  'last_attempt_at',
  'last_response_code',
  'created_at',
  'delivered_at',
  'leased_until',
] as const;

const setStatistics = (target: number) =>
  `ALTER TABLE webhooks.deliveries
   ${SAMPLED_DELIVERY_COLUMNS.map((column) => `ALTER COLUMN ${column} SET STATISTICS ${target}`).join(',\n   ')}`;

/** The queue key, the expression deliveries_pending_queue_idx indexes, has statistics of its own. */
const setQueueKeyStatistics = (target: number) =>
  `ALTER INDEX webhooks.deliveries_pending_queue_idx ALTER COLUMN 1 SET STATISTICS ${target}`;

/**
 * Statistics of webhooks.deliveries from a sample of 3,000 rows instead of 30,000 (ANALYZE samples 300 rows per unit of
 * the largest target of a column or an indexed expression: 10 here, 100 by default). TableStatisticsKeeper analyses
 * the table at every doubling, and under load each ANALYZE of a few tens of thousands of rows held a core for a few
 * hundred milliseconds, long enough to show in the deliveries' p99. The claims, the fan-out and the outcomes find their rows by index whatever
 * the statistics say (delivery-claims.plans.integration.spec.ts), and a status, a subscription or a due time needs no
 * finer histogram than ten buckets.
 */
export class SmallStatisticsSampleForDeliveries1796600000000 implements MigrationInterface {
  name = 'SmallStatisticsSampleForDeliveries1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(setStatistics(10));
    await queryRunner.query(setQueueKeyStatistics(10));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(setStatistics(-1));
    await queryRunner.query(setQueueKeyStatistics(-1));
  }
}
