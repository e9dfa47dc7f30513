import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events whose fan-out kept failing: set aside (and acknowledged) so the consumer's ack floor, and with it every other
 * subject's deliveries, moves on; retried from here, and while one is pending the later rows of its ordering key wait.
 */
export class CreateParkedEvents1796100000000 implements MigrationInterface {
  name = 'CreateParkedEvents1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks.parked_events (
        -- The event's place in the JetStream stream: unique, and the order within its ordering key.
        stream_seq bigint PRIMARY KEY,
        subject varchar(200) NOT NULL,
        -- The event as it came (its id may be what cannot be stored elsewhere).
        envelope text NOT NULL,
        -- Null when the event has none (then it holds nothing back).
        ordering_key varchar(200),
        status varchar(20) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
        attempts integer NOT NULL,
        last_error varchar(1000) NOT NULL,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        failed_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX parked_events_pending_idx ON webhooks.parked_events (ordering_key, stream_seq)
        WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhooks.parked_events`);
  }
}
