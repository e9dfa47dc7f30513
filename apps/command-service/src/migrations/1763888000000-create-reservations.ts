import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reservations a charge point accepted (reserve commands), with their end as the charge point reports it. One row
 * per reserve command; `expires_at` passing ends an active one at read time (no job writes `expired` for it).
 */
export class CreateReservations1763888000000 implements MigrationInterface {
  name = 'CreateReservations1763888000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.reservations (
        uuid uuid PRIMARY KEY,
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        plug_uuid uuid,
        connector_id integer,
        evse_id integer,
        reservation_id integer NOT NULL,
        id_tag varchar(36) NOT NULL,
        expires_at timestamptz NOT NULL,
        status varchar(10) NOT NULL
          CHECK (status IN ('active', 'used', 'cancelled', 'expired', 'removed', 'replaced')),
        ended_at timestamptz,
        charging_session_uuid uuid,
        reserve_command_uuid uuid NOT NULL UNIQUE,
        cancel_command_uuid uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT reservations_ended_when_not_active CHECK ((status = 'active') = (ended_at IS NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX reservations_tenant_created_idx ON control.reservations (tenant_uuid, created_at DESC, uuid)`,
    );
    // The charge point names a reservation by its OCPP id: cancel, use, status update.
    await queryRunner.query(
      `CREATE INDEX reservations_active_by_id_idx ON control.reservations (controller_uuid, reservation_id)
        WHERE status = 'active'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE control.reservations');
  }
}
