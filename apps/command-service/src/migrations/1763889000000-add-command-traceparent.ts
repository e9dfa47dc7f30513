import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C traceparent of the traced request that created a command (null when it was not sampled or tracing is
 * off): the command's delivery, whenever and wherever it runs, continues that trace, so one trace shows the command
 * from its POST to the charge point's answer.
 */
export class AddCommandTraceparent1763889000000 implements MigrationInterface {
  name = 'AddCommandTraceparent1763889000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands ADD COLUMN traceparent text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE control.commands DROP COLUMN traceparent');
  }
}
