import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * control.move_command_counts applies a transaction's count changes in the order given, one round trip for all: a
 * batch of status changes moves up to two count rows per slot, and one statement each kept the transaction (and the
 * count rows it had locked, which creations wait for) open for as many round trips. The order is the caller's (the
 * global lock order of countStatusChanges); a decrement updates the row its increment made, an increment upserts.
 */
export class MoveCommandCountsFunction1763830000000 implements MigrationInterface {
  name = 'MoveCommandCountsFunction1763830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION control.move_command_counts(
        tenant_uuids uuid[], target_types text[], types text[], statuses text[], slots smallint[], deltas bigint[]
      ) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        FOR i IN 1 .. coalesce(array_length(deltas, 1), 0) LOOP
          IF deltas[i] < 0 THEN
            UPDATE control.command_counts SET count = count + deltas[i]
             WHERE tenant_uuid = tenant_uuids[i] AND target_type = target_types[i] AND type = types[i]
               AND status = statuses[i] AND slot = slots[i];
          ELSE
            INSERT INTO control.command_counts AS c (tenant_uuid, target_type, type, status, slot, count)
            VALUES (tenant_uuids[i], target_types[i], types[i], statuses[i], slots[i], deltas[i])
            ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = c.count + EXCLUDED.count;
          END IF;
        END LOOP;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP FUNCTION control.move_command_counts(uuid[], text[], text[], text[], smallint[], bigint[])',
    );
  }
}
