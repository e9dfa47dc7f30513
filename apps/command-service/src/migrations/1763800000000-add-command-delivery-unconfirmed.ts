import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a delivery request went unanswered (NATS trouble, the gateway died meanwhile), the call may have reached the
 * charge point although nothing said so: such a command never fails as `charge_point_offline`.
 */
export class AddCommandDeliveryUnconfirmed1763800000000 implements MigrationInterface {
  name = 'AddCommandDeliveryUnconfirmed1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands ADD COLUMN delivery_unconfirmed_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands DROP COLUMN delivery_unconfirmed_at');
  }
}
