import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LaneFreeFunction1763870000000 } from './1763870000000-lane-free-function.js';
import { LaneHandoverFunction1763896000000 } from './1763896000000-lane-handover-function.js';

const OPEN = `status IN ('pending', 'sent')`;

/**
 * One function decides a lane for claims, creations and hand-overs: control.lane_is_free(lane, head, ending), where
 * `ending` (empty unless given) are commands the calling statement ends itself and counts as ended already (its own
 * changes are invisible to its queries). It is control.lane_is_free and control.lane_is_free_after made one, whose
 * bodies differed only by that predicate; the rules are theirs (see those migrations). lane_is_free_after stays, as a
 * call of it, for command-service replicas of the previous release until a deploy has replaced them; nothing of this
 * release calls it.
 */
export class OneLaneFunction1763898000000 implements MigrationInterface {
  name = 'OneLaneFunction1763898000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION control.lane_is_free_after(uuid, uuid, uuid[])');
    await queryRunner.query('DROP FUNCTION control.lane_is_free(uuid, uuid)');
    await queryRunner.query(`
      CREATE FUNCTION control.lane_is_free(lane uuid, head uuid, ending uuid[] DEFAULT '{}') RETURNS boolean
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        -- The first key, 'lane' in ASCII, sets these locks apart from any other advisory lock of the database.
        IF NOT pg_try_advisory_xact_lock(1818324581, hashtext(lane::text)) THEN
          RETURN false;
        END IF;
        IF head IS NULL THEN
          RETURN NOT EXISTS (SELECT FROM control.commands
                              WHERE controller_uuid = lane AND ${OPEN} AND uuid <> ALL (ending));
        END IF;
        RETURN NOT EXISTS (SELECT FROM control.commands
                            WHERE controller_uuid = lane AND ${OPEN} AND lease_until >= now()
                              AND uuid <> ALL (ending))
           AND head IS NOT DISTINCT FROM (SELECT uuid FROM control.commands
                                           WHERE controller_uuid = lane AND ${OPEN} AND uuid <> ALL (ending)
                                           ORDER BY created_at, uuid LIMIT 1);
      END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION control.lane_is_free_after(lane uuid, head uuid, ending uuid[]) RETURNS boolean
      LANGUAGE sql VOLATILE AS 'SELECT control.lane_is_free(lane, head, ending)'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION control.lane_is_free_after(uuid, uuid, uuid[])');
    await queryRunner.query('DROP FUNCTION control.lane_is_free(uuid, uuid, uuid[])');
    await new LaneFreeFunction1763870000000().up(queryRunner);
    await new LaneHandoverFunction1763896000000().up(queryRunner);
  }
}
