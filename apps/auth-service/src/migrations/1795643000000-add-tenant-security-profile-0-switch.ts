import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Security profile 0 (a charge point without any credentials) only where an operator turned it on for the tenant:
 * every existing tenant starts with it off.
 */
export class AddTenantSecurityProfile0Switch1795643000000 implements MigrationInterface {
  name = 'AddTenantSecurityProfile0Switch1795643000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE auth.tenants ADD COLUMN allows_security_profile_0 boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE auth.tenants DROP COLUMN allows_security_profile_0`);
  }
}
