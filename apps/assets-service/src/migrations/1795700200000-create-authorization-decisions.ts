import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every answer the ocpp-gateways gave about an id token, one row per decision event (its event id is the key, so a
 * redelivered event is stored once), read per tenant newest first.
 */
export class CreateAuthorizationDecisions1795700200000 implements MigrationInterface {
  name = 'CreateAuthorizationDecisions1795700200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.authorization_decisions (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        id_token varchar(36) NOT NULL,
        type varchar(20),
        id_token_uuid uuid,
        controller_uuid uuid NOT NULL,
        location_uuid uuid NOT NULL,
        result varchar(24) NOT NULL,
        reason varchar(32) NOT NULL,
        message_kind varchar(24) NOT NULL,
        decided_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX authorization_decisions_tenant_time_idx
         ON assets.authorization_decisions (tenant_uuid, decided_at DESC, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX authorization_decisions_tenant_token_idx
         ON assets.authorization_decisions (tenant_uuid, lower(id_token), decided_at DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX authorization_decisions_tenant_controller_idx
         ON assets.authorization_decisions (tenant_uuid, controller_uuid, decided_at DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assets.authorization_decisions`);
  }
}
