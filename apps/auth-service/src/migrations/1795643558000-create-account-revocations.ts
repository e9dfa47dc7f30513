import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per account whose access tokens were revoked: tokens issued before `not_before` are refused by the
 * api-gateways, which read the rows changed since their last poll (`changed_at`, paged by `sequence`).
 */
export class CreateAccountRevocations1795643558000 implements MigrationInterface {
  name = 'CreateAccountRevocations1795643558000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE auth.account_revocation_sequence`);
    await queryRunner.query(`
      CREATE TABLE auth.account_revocations (
        account_uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        not_before bigint NOT NULL,
        sequence bigint NOT NULL DEFAULT nextval('auth.account_revocation_sequence'),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX account_revocations_changed ON auth.account_revocations (changed_at, sequence)`,
    );
    await queryRunner.query(
      `CREATE INDEX refresh_tokens_live_by_account ON auth.refresh_tokens (account_uuid) WHERE revoked_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX auth.refresh_tokens_live_by_account`);
    await queryRunner.query(`DROP TABLE auth.account_revocations`);
    await queryRunner.query(`DROP SEQUENCE auth.account_revocation_sequence`);
  }
}
