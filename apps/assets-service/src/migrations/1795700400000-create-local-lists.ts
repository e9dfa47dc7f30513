import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Local authorization lists: per controller the list version it accepted last and the entries of that list
 * (`local_lists`), and the update a send_local_list command is delivering, kept from its preparation until the charge
 * point's answer (`local_list_updates`): Accepted makes it the controller's list, anything else drops it.
 */
export class CreateLocalLists1795700400000 implements MigrationInterface {
  name = 'CreateLocalLists1795700400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.local_lists (
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        entries jsonb NOT NULL,
        command_uuid uuid NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_uuid, controller_uuid)
      )`);
    await queryRunner.query(
      `CREATE INDEX local_lists_controller_idx ON assets.local_lists (controller_uuid)`,
    );
    await queryRunner.query(`
      CREATE TABLE assets.local_list_updates (
        command_uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        update_type varchar(12) NOT NULL CHECK (update_type IN ('full', 'differential')),
        base_version integer NOT NULL CHECK (base_version >= 0),
        version integer NOT NULL CHECK (version = base_version + 1),
        tokens jsonb NOT NULL,
        removals jsonb NOT NULL,
        entries jsonb NOT NULL,
        prepared_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX local_list_updates_controller_idx ON assets.local_list_updates (controller_uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX local_list_updates_prepared_idx ON assets.local_list_updates (prepared_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE assets.local_list_updates`);
    await queryRunner.query(`DROP TABLE assets.local_lists`);
  }
}
