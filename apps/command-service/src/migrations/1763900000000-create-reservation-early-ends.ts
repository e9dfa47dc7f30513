import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ends of a reservation that arrived before the reservation (2.0.1 ReservationStatusUpdate `Expired` / `Removed`): they
 * come through the charge-point events' consumer, the answer to the reserve command through another, so a station that
 * drops a reservation right after accepting it may be heard first. The end waits here until its reservation is
 * recorded, which then starts ended; one that no reservation claims is kept a day, then dropped.
 */
export class CreateReservationEarlyEnds1763900000000 implements MigrationInterface {
  name = 'CreateReservationEarlyEnds1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.reservation_early_ends (
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        reservation_id integer NOT NULL,
        status varchar(16) NOT NULL,
        ended_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX reservation_early_ends_by_id_idx
         ON control.reservation_early_ends (controller_uuid, reservation_id, ended_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE control.reservation_early_ends');
  }
}
