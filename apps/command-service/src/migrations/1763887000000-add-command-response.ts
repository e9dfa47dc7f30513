import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The charge point's answer to a command as received (`result.response` in the API), beside `result` rather than in
 * it: a page of the list reads no answers unless it asks for them, and the status events stay small.
 */
export class AddCommandResponse1763887000000 implements MigrationInterface {
  name = 'AddCommandResponse1763887000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands ADD COLUMN response jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands DROP COLUMN response');
  }
}
