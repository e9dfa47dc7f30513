import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions (their signing secrets encrypted), one delivery row per (event, subscription) written before the
 * event is acknowledged, and the last `charging_session.updated` per session (at most one a minute).
 */
export class CreateWebhooksSchema1796000000000 implements MigrationInterface {
  name = 'CreateWebhooksSchema1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS webhooks`);
    await queryRunner.query(`
      CREATE TABLE webhooks.subscriptions (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        url varchar(2048) NOT NULL,
        event_types text[] NOT NULL,
        location_uuid uuid,
        controller_uuid uuid,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason varchar(500),
        failing_since timestamptz,
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX subscriptions_tenant_idx ON webhooks.subscriptions (tenant_uuid, created_at DESC, uuid)`,
    );
    await queryRunner.query(`
      CREATE TABLE webhooks.deliveries (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL UNIQUE,
        tenant_uuid uuid NOT NULL,
        subscription_uuid uuid NOT NULL REFERENCES webhooks.subscriptions (uuid) ON DELETE CASCADE,
        event_id varchar(100) NOT NULL,
        event_type varchar(100) NOT NULL,
        ordering_key varchar(200) NOT NULL,
        -- The event's place in the JetStream stream (null for a ping): the order within an ordering key.
        stream_seq bigint,
        body text NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        last_response_code integer,
        last_error varchar(1000),
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        UNIQUE (event_id, subscription_uuid)
      )`);
    // The claim: due heads of each (subscription, subject) queue.
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_due_idx ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX deliveries_pending_lane_idx ON webhooks.deliveries (subscription_uuid, ordering_key, stream_seq)
        WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX deliveries_subscription_idx ON webhooks.deliveries (subscription_uuid, seq DESC)`,
    );
    await queryRunner.query(`
      CREATE TABLE webhooks.session_updates (
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        transaction_id varchar(100) NOT NULL,
        last_sent_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_uuid, controller_uuid, transaction_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhooks.session_updates`);
    await queryRunner.query(`DROP TABLE webhooks.deliveries`);
    await queryRunner.query(`DROP TABLE webhooks.subscriptions`);
  }
}
