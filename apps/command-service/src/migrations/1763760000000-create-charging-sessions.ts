import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charging sessions as the ocpp-gateway reports them. (tenant_uuid, controller_uuid, ocpp_transaction_id) is the
 * natural key every transaction event upserts by. Indexes start with tenant_uuid and fit the list's filters and its
 * default order (newest start first).
 */
export class CreateChargingSessions1763760000000 implements MigrationInterface {
  name = 'CreateChargingSessions1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.charging_sessions (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        plug_uuid uuid,
        connector_id integer CHECK (connector_id >= 0),
        evse_id integer CHECK (evse_id >= 0),
        ocpp_transaction_id varchar(36) NOT NULL,
        id_tag varchar(36),
        started_at timestamptz,
        stopped_at timestamptz,
        meter_start_wh numeric(16, 3),
        meter_stop_wh numeric(16, 3),
        meter_last_wh numeric(16, 3),
        meter_last_at timestamptz,
        stop_reason varchar(50),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT charging_sessions_transaction_key UNIQUE (tenant_uuid, controller_uuid, ocpp_transaction_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX charging_sessions_tenant_started_idx ON control.charging_sessions (tenant_uuid, started_at DESC, uuid)`,
    );
    await queryRunner.query(
      `CREATE INDEX charging_sessions_tenant_plug_idx ON control.charging_sessions (tenant_uuid, plug_uuid) WHERE plug_uuid IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX charging_sessions_tenant_active_idx ON control.charging_sessions (tenant_uuid, controller_uuid) WHERE stopped_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE control.charging_sessions');
  }
}
