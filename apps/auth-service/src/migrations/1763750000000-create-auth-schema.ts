import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuthSchema1763750000000 implements MigrationInterface {
  name = 'CreateAuthSchema1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auth.tenants (
        uuid uuid PRIMARY KEY,
        slug varchar(128) NOT NULL UNIQUE,
        name varchar(200) NOT NULL,
        default_context varchar(16) NOT NULL,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE auth.roles (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        permissions text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_uuid, name)
      )`);
    await queryRunner.query(`
      CREATE TABLE auth.users (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        password_hash text NOT NULL,
        entity_type varchar(16) NOT NULL,
        role_uuid uuid NOT NULL REFERENCES auth.roles (uuid) ON DELETE RESTRICT,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_uuid, email)
      )`);
    await queryRunner.query(`
      CREATE TABLE auth.api_keys (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        public_key varchar(64) NOT NULL,
        secret_hash text NOT NULL,
        role_uuid uuid NOT NULL REFERENCES auth.roles (uuid) ON DELETE RESTRICT,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_uuid, public_key)
      )`);
    await queryRunner.query(`
      CREATE TABLE auth.signing_keys (
        kid varchar(64) PRIMARY KEY,
        algorithm varchar(16) NOT NULL,
        public_key_pem text NOT NULL,
        private_key_ciphertext text NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('active', 'retired', 'revoked')),
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz,
        revoked_at timestamptz
      )`);
    // At most one key signs at any time.
    await queryRunner.query(
      `CREATE UNIQUE INDEX signing_keys_one_active ON auth.signing_keys (status) WHERE status = 'active'`,
    );
    await queryRunner.query(`
      CREATE TABLE auth.refresh_tokens (
        uuid uuid PRIMARY KEY,
        token_hash char(64) NOT NULL UNIQUE,
        family_uuid uuid NOT NULL,
        tenant_uuid uuid NOT NULL REFERENCES auth.tenants (uuid) ON DELETE CASCADE,
        account_kind varchar(8) NOT NULL,
        account_uuid uuid NOT NULL,
        context varchar(16) NOT NULL,
        data_uuid uuid,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX refresh_tokens_family ON auth.refresh_tokens (family_uuid)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['refresh_tokens', 'signing_keys', 'api_keys', 'users', 'roles', 'tenants']) {
      await queryRunner.query(`DROP TABLE auth.${table}`);
    }
  }
}
