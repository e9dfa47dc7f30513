import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What charge points report about their configuration (ControllerConfigurationService):
 * - `controller_configuration`: the latest value of every 1.6 key and 2.0.1 variable attribute per controller, keyed
 *   by the entry's key (byte order, "C", so a key prefix is an index range);
 * - `controller_report_parts`: parts of a 2.0.1 NotifyReport held until the report is complete (seqNo 0..n, the
 *   last with tbc false), then applied together and removed;
 * - `controller_report_requests`: which command asked for a report (GetBaseReport's requestId), so its entries name
 *   their source command whichever of the answer and the report arrives first.
 * All follow their controller's deletion.
 */
export class CreateControllerConfiguration1795644000000 implements MigrationInterface {
  name = 'CreateControllerConfiguration1795644000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE assets.controller_configuration (
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        key text COLLATE "C" NOT NULL,
        tenant_uuid uuid NOT NULL,
        component text,
        component_instance text,
        evse_id integer,
        connector_id integer,
        variable text NOT NULL,
        variable_instance text,
        attribute_type text,
        value text,
        mutability text,
        characteristics jsonb,
        status text NOT NULL,
        source_message text NOT NULL,
        source_command_uuid uuid,
        source_request_id integer,
        reported_at timestamptz NOT NULL,
        PRIMARY KEY (controller_uuid, key)
      )`);
    await queryRunner.query(
      `CREATE INDEX controller_configuration_component_idx
         ON assets.controller_configuration (controller_uuid, component, key)`,
    );
    await queryRunner.query(`
      CREATE TABLE assets.controller_report_parts (
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        request_id integer NOT NULL,
        seq_no integer NOT NULL,
        tbc boolean NOT NULL,
        report_data jsonb NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (controller_uuid, request_id, seq_no)
      )`);
    await queryRunner.query(`
      CREATE TABLE assets.controller_report_requests (
        controller_uuid uuid NOT NULL REFERENCES assets.controllers (uuid) ON DELETE CASCADE,
        request_id integer NOT NULL,
        command_uuid uuid NOT NULL,
        requested_at timestamptz NOT NULL,
        PRIMARY KEY (controller_uuid, request_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE assets.controller_report_requests');
    await queryRunner.query('DROP TABLE assets.controller_report_parts');
    await queryRunner.query('DROP TABLE assets.controller_configuration');
  }
}
