import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How the ocpp-gateway answers drivers' id tokens of the tenant: `strict` (only its known, accepted tokens) unless an
 * operator chose `accept_unknown`; every existing tenant starts strict.
 */
export class AddTenantAuthorizationMode1795700100000 implements MigrationInterface {
  name = 'AddTenantAuthorizationMode1795700100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE auth.tenants ADD COLUMN authorization_mode varchar(16) NOT NULL DEFAULT 'strict'
         CONSTRAINT tenants_authorization_mode_check CHECK (authorization_mode IN ('strict', 'accept_unknown'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE auth.tenants DROP COLUMN authorization_mode`);
  }
}
