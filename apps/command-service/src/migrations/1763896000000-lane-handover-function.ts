import type { MigrationInterface, QueryRunner } from 'typeorm';

const OPEN = `status IN ('pending', 'sent')`;

/**
 * control.lane_is_free_after(lane, head, ending): control.lane_is_free(lane, head) for the statement that ends the
 * commands `ending` of the lane and hands its next command over in the same transaction (the batch of transitions).
 * That statement's own changes are invisible to its queries, so the commands it ends are passed over here as if
 * already ended: the lane is free when no other command of it is leased and `head` is its oldest open command besides
 * them. Same advisory lock as control.lane_is_free, so a claim, a creation and a hand-over never all find the lane
 * free; a try-lock, never waited for.
 */
export class LaneHandoverFunction1763896000000 implements MigrationInterface {
  name = 'LaneHandoverFunction1763896000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION control.lane_is_free_after(lane uuid, head uuid, ending uuid[]) RETURNS boolean
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF NOT pg_try_advisory_xact_lock(1818324581, hashtext(lane::text)) THEN
          RETURN false;
        END IF;
        RETURN NOT EXISTS (SELECT FROM control.commands
                            WHERE controller_uuid = lane AND ${OPEN} AND lease_until >= now()
                              AND uuid <> ALL (ending))
           AND head IS NOT DISTINCT FROM (SELECT uuid FROM control.commands
                                           WHERE controller_uuid = lane AND ${OPEN} AND uuid <> ALL (ending)
                                           ORDER BY created_at, uuid LIMIT 1);
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION control.lane_is_free_after(uuid, uuid, uuid[])');
  }
}
