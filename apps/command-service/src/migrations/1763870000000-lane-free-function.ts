import type { MigrationInterface, QueryRunner } from 'typeorm';

const OPEN = `status IN ('pending', 'sent')`;

/**
 * control.lane_is_free(lane, head): whether this transaction may lease a command of charge point `lane`, deciding it
 * under a per-lane advisory lock held to the end of the transaction. `head` is the command a claim wants (it must
 * still be the lane's oldest open command, and no lease of the lane may be running); a null `head` is a creation
 * leasing its new command, which needs a lane with no open command at all. Both the creation statement and the claim
 * ask it, so two transactions never both find a lane free: the second either fails the lock or, once it gets it,
 * sees the first one's lease. The function is VOLATILE so that, in READ COMMITTED, its queries take a snapshot after
 * the lock (the calling statement's snapshot may predate the commit of the transaction that held it). The lock is a
 * try-lock: a lane another transaction is deciding is passed over, never waited for.
 */
export class LaneFreeFunction1763870000000 implements MigrationInterface {
  name = 'LaneFreeFunction1763870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION control.lane_is_free(lane uuid, head uuid) RETURNS boolean
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        -- The first key, 'lane' in ASCII, sets these locks apart from any other advisory lock of the database.
        IF NOT pg_try_advisory_xact_lock(1818324581, hashtext(lane::text)) THEN
          RETURN false;
        END IF;
        IF head IS NULL THEN
          RETURN NOT EXISTS (SELECT FROM control.commands WHERE controller_uuid = lane AND ${OPEN});
        END IF;
        RETURN NOT EXISTS (SELECT FROM control.commands
                            WHERE controller_uuid = lane AND ${OPEN} AND lease_until >= now())
           AND head IS NOT DISTINCT FROM (SELECT uuid FROM control.commands
                                           WHERE controller_uuid = lane AND ${OPEN}
                                           ORDER BY created_at, uuid LIMIT 1);
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION control.lane_is_free(uuid, uuid)');
  }
}
