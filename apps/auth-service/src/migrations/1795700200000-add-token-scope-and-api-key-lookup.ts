import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 6749 forms of the token endpoint: `refresh_tokens.scope` keeps the permissions a login asked for (null: all of
 * the role's), so a refresh carries the narrowing on; the index on `api_keys.public_key` finds an API key's tenant
 * for a `client_credentials` request that names none (public keys are random, so one key names one tenant).
 */
export class AddTokenScopeAndApiKeyLookup1795700200000 implements MigrationInterface {
  name = 'AddTokenScopeAndApiKeyLookup1795700200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE auth.refresh_tokens ADD COLUMN scope text`);
    await queryRunner.query(`CREATE INDEX api_keys_public_key ON auth.api_keys (public_key)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX auth.api_keys_public_key`);
    await queryRunner.query(`ALTER TABLE auth.refresh_tokens DROP COLUMN scope`);
  }
}
