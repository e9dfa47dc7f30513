/**
 * How many count rows differ from the commands, per (tenant, target type, type, status, slot): each slot's entries
 * and exits (slot + 32) summed, against the commands of that slot. 0 when the counts are right.
 */
export const COUNT_MISMATCHES_SQL = `
  WITH actual AS (
    SELECT tenant_uuid, target_type, type, status, control.command_count_slot(uuid) AS slot, count(*) AS count
      FROM control.commands GROUP BY tenant_uuid, target_type, type, status, slot),
  counted AS (
    SELECT tenant_uuid, target_type, type, status, slot % 32 AS slot, sum(count) AS count
      FROM control.command_counts GROUP BY tenant_uuid, target_type, type, status, slot % 32
    HAVING sum(count) <> 0)
  SELECT count(*)::int AS mismatches FROM actual FULL JOIN counted USING (tenant_uuid, target_type, type, status, slot)
   WHERE actual.count IS DISTINCT FROM counted.count`;
