import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A counter that grows with every change of a controller's password, security profile or identity. The gateway keeps
 * the version a socket authenticated with, and a change event closes every socket of an older version.
 */
export class AddControllerCredentialsVersion1795643100000 implements MigrationInterface {
  name = 'AddControllerCredentialsVersion1795643100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE assets.controllers ADD COLUMN credentials_version integer NOT NULL DEFAULT 1`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets.controllers DROP COLUMN credentials_version`);
  }
}
