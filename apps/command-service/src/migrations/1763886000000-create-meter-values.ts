import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every sampled value charge points report, partitioned by month of `sampled_at` (PostgreSQL's native range
 * partitioning): command-service creates the months ahead and drops those past the retention
 * (MeterValuePartitions); a sample whose time falls outside every month (a charge point with a wrong clock) lands in
 * the default partition. The primary key (event, index within it) makes a redelivered event a no-op. A session's
 * summary (peak power, last sample) is kept on the session.
 */
export class CreateMeterValues1763886000000 implements MigrationInterface {
  name = 'CreateMeterValues1763886000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.meter_values (
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        ocpp_transaction_id varchar(36),
        evse_id integer,
        connector_id integer,
        sampled_at timestamptz NOT NULL,
        measurand text NOT NULL,
        phase text,
        location text NOT NULL,
        unit text NOT NULL,
        context text NOT NULL,
        value double precision NOT NULL,
        event_id uuid NOT NULL,
        sample_index integer NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (sampled_at, event_id, sample_index)
      ) PARTITION BY RANGE (sampled_at)`);
    await queryRunner.query(
      `CREATE TABLE control.meter_values_default PARTITION OF control.meter_values DEFAULT`,
    );
    await queryRunner.query(
      `CREATE INDEX meter_values_transaction_idx ON control.meter_values
         (tenant_uuid, controller_uuid, ocpp_transaction_id, sampled_at) WHERE ocpp_transaction_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX meter_values_controller_idx ON control.meter_values (tenant_uuid, controller_uuid, sampled_at)`,
    );
    await queryRunner.query(`
      ALTER TABLE control.charging_sessions
        ADD COLUMN peak_power_w numeric(16, 3),
        ADD COLUMN last_sample_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE control.charging_sessions DROP COLUMN peak_power_w, DROP COLUMN last_sample_at',
    );
    await queryRunner.query('DROP TABLE control.meter_values');
  }
}
