import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log of account administration: one row per change of a user, role or API key, made through the admin
 * API or the admin CLI, written in the transaction of the change. Before and after hold views, never secrets.
 */
export class CreateAuditEvents1795700000000 implements MigrationInterface {
  name = 'CreateAuditEvents1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auth.audit_events (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        kind varchar(32) NOT NULL,
        actor_type varchar(16) NOT NULL,
        actor_uuid uuid,
        actor_name varchar(254) NOT NULL,
        source_address varchar(64),
        target_type varchar(16) NOT NULL,
        target_uuid uuid NOT NULL,
        changed_fields text[] NOT NULL,
        before jsonb,
        after jsonb
      )`);
    await queryRunner.query(
      `CREATE INDEX audit_events_by_time ON auth.audit_events (tenant_uuid, occurred_at DESC, uuid)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.audit_events`);
  }
}
