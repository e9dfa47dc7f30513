import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim takes due rows subscription by subscription (so a receiver with a large backlog that is at its in-flight
 * cap costs the others nothing): pending rows by subscription and due time, instead of by due time alone (with that
 * index still there the planner walked it and filtered a capped subscription's whole backlog out on every claim).
 */
export class IndexDueDeliveriesPerSubscription1796200000000 implements MigrationInterface {
  name = 'IndexDueDeliveriesPerSubscription1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhooks.deliveries_pending_due_idx`);
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_subscription_due_idx ON webhooks.deliveries (subscription_uuid, next_attempt_at)
        WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhooks.deliveries_pending_subscription_due_idx`);
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_due_idx ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
  }
}
