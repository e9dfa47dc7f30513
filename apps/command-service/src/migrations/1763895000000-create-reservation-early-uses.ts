import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uses of a reservation that arrived before the reservation: the transaction that names it and the answer to the
 * reserve command reach command-service through different consumers, so a charge point that starts charging right
 * after accepting may be heard first. The use waits here until its reservation is recorded, which then starts as
 * `used`; one that no reservation claims is kept a day, then dropped.
 */
export class CreateReservationEarlyUses1763895000000 implements MigrationInterface {
  name = 'CreateReservationEarlyUses1763895000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE control.reservation_early_uses (
        tenant_uuid uuid NOT NULL,
        controller_uuid uuid NOT NULL,
        reservation_id integer NOT NULL,
        transaction_id varchar(36),
        used_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Which transaction used a reservation: a redelivered use is then known as one, not taken for an early one.
    await queryRunner.query('ALTER TABLE control.reservations ADD COLUMN used_by_transaction_id varchar(36)');
    await queryRunner.query(
      `CREATE INDEX reservation_early_uses_by_id_idx
         ON control.reservation_early_uses (controller_uuid, reservation_id, received_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE control.reservation_early_uses');
    await queryRunner.query('ALTER TABLE control.reservations DROP COLUMN used_by_transaction_id');
  }
}
