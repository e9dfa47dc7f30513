import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counters of the token endpoint's limits, shared by every auth-service (and so every api-gateway) replica: one row
 * per limited subject and fixed window. `subject` is a client address (scope `address`) or a SHA-256 of the
 * normalized account (scope `account`) or of account and address (scope `account_address`), so no e-mail is stored.
 * `known_until` (account_address only): the address logged in to the account, so the per-account threshold does not
 * hold it back until then.
 */
export class CreateTokenLimitCounters1795644772000 implements MigrationInterface {
  name = 'CreateTokenLimitCounters1795644772000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auth.token_limit_counters (
        scope varchar(16) NOT NULL CHECK (scope IN ('address', 'account', 'account_address')),
        subject varchar(64) NOT NULL,
        window_started_at timestamptz NOT NULL,
        hits integer NOT NULL CHECK (hits >= 0),
        known_until timestamptz,
        PRIMARY KEY (scope, subject)
      )`);
    // The sweep deletes finished windows by their start.
    await queryRunner.query(
      `CREATE INDEX token_limit_counters_window ON auth.token_limit_counters (window_started_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE auth.token_limit_counters`);
  }
}
