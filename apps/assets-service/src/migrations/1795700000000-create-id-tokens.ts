import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drivers' id tokens per tenant, unique per value (case-insensitively, as OCPP compares idTags) and type; a token may
 * name another token of its tenant as its group (refused as delete target while named). Every change raises the
 * tenant's revision (id_token_revisions) in the same transaction, and the changed row carries it, so a gateway
 * cache can tell whether it missed a change. Imports are kept in id_token_import_parts until their commit.
 */
export class CreateIdTokens1795700000000 implements MigrationInterface {
  name = 'CreateIdTokens1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.id_tokens (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        id_token varchar(36) NOT NULL,
        type varchar(20) NOT NULL,
        status varchar(10) NOT NULL,
        expires_at timestamptz,
        group_uuid uuid,
        contract_reference varchar(255),
        allowed_location_uuids uuid[] NOT NULL DEFAULT '{}',
        revision bigint NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT id_tokens_tenant_uuid_key UNIQUE (tenant_uuid, uuid),
        CONSTRAINT id_tokens_group_fkey FOREIGN KEY (tenant_uuid, group_uuid)
          REFERENCES assets.id_tokens (tenant_uuid, uuid)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX id_tokens_tenant_value_type_key ON assets.id_tokens (tenant_uuid, lower(id_token), type)`,
    );
    await queryRunner.query(
      `CREATE INDEX id_tokens_tenant_created_idx ON assets.id_tokens (tenant_uuid, created_at DESC, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX id_tokens_group_idx ON assets.id_tokens (tenant_uuid, group_uuid) WHERE group_uuid IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE assets.id_token_revisions (
        tenant_uuid uuid PRIMARY KEY,
        revision bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE assets.id_token_import_parts (
        import_uuid uuid NOT NULL,
        tenant_uuid uuid NOT NULL,
        first_index integer NOT NULL,
        tokens jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (import_uuid, first_index)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assets.id_token_import_parts`);
    await queryRunner.query(`DROP TABLE assets.id_token_revisions`);
    await queryRunner.query(`DROP TABLE assets.id_tokens`);
  }
}
