import type { MigrationInterface, QueryRunner } from 'typeorm';

const OPEN = `status IN ('pending', 'sent')`;

/**
 * Commands, their idempotency keys and the outbox of their status events.
 *
 * Reading: every list index starts with tenant_uuid and ends with (created_at, uuid), the list's order and its
 * tie-breaker, so a filtered page is an index range read in order (forward or backward) with no sort; see the README
 * (Commands, "Indexes") for the EXPLAIN figures on a seeded table.
 * Delivering: the open commands (pending, sent) are few whatever the table's size; two partial indexes over them
 * find the due ones and each charge point's oldest open one.
 * The checks make the lifecycle's invariants hold in the database itself: result and completed_at are set exactly
 * when the status is terminal.
 */
export class CreateCommands1763780000000 implements MigrationInterface {
  name = 'CreateCommands1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.commands (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        type varchar(32) NOT NULL,
        target_type varchar(20) NOT NULL CHECK (target_type IN ('controller', 'connector', 'charging_session')),
        target_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        target jsonb NOT NULL,
        parameters jsonb NOT NULL,
        status varchar(10) NOT NULL
          CHECK (status IN ('pending', 'sent', 'accepted', 'rejected', 'timeout', 'failed')),
        result jsonb,
        valid_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        completed_at timestamptz,
        next_attempt_at timestamptz,
        lease_owner varchar(100),
        lease_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        target_deleted_at timestamptz,
        CONSTRAINT commands_result_when_terminal CHECK ((${OPEN}) = (result IS NULL)),
        CONSTRAINT commands_completed_when_terminal CHECK ((${OPEN}) = (completed_at IS NULL))
      )`);
    for (const [name, columns] of [
      ['commands_tenant_created_idx', 'tenant_uuid, created_at, uuid'],
      ['commands_tenant_target_idx', 'tenant_uuid, target_uuid, created_at, uuid'],
      ['commands_tenant_status_idx', 'tenant_uuid, status, created_at, uuid'],
      ['commands_tenant_type_idx', 'tenant_uuid, type, created_at, uuid'],
      ['commands_tenant_target_type_idx', 'tenant_uuid, target_type, created_at, uuid'],
    ]) {
      await queryRunner.query(`CREATE INDEX ${name} ON control.commands (${columns})`);
    }
    await queryRunner.query(
      `CREATE INDEX commands_open_lane_idx ON control.commands (controller_uuid, created_at, uuid) WHERE ${OPEN}`,
    );
    await queryRunner.query(
      `CREATE INDEX commands_open_due_idx ON control.commands (next_attempt_at) WHERE ${OPEN}`,
    );

    await queryRunner.query(`
      CREATE TABLE control.command_idempotency_keys (
        tenant_uuid uuid NOT NULL,
        idempotency_key varchar(255) NOT NULL,
        request_fingerprint char(64) NOT NULL,
        command_uuid uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_uuid, idempotency_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX command_idempotency_keys_expires_idx ON control.command_idempotency_keys (expires_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE control.outbox_events (
        event_id uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        subject varchar(200) NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE INDEX outbox_events_created_idx ON control.outbox_events (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['outbox_events', 'command_idempotency_keys', 'commands']) {
      await queryRunner.query(`DROP TABLE IF EXISTS control.${table}`);
    }
  }
}
