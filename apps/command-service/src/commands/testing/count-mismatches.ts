/**
 * How many counts differ from the commands, per (tenant, target type, type, status): every slot's entries and exits
 * summed, against the commands. 0 when the counts are right.
 */
export const COUNT_MISMATCHES_SQL = `
  WITH actual AS (
    SELECT tenant_uuid, target_type, type, status, count(*) AS count
      FROM control.commands GROUP BY tenant_uuid, target_type, type, status),
  counted AS (
    SELECT tenant_uuid, target_type, type, status, sum(count) AS count
      FROM control.command_counts GROUP BY tenant_uuid, target_type, type, status
    HAVING sum(count) <> 0)
  SELECT count(*)::int AS mismatches FROM actual FULL JOIN counted USING (tenant_uuid, target_type, type, status)
   WHERE actual.count IS DISTINCT FROM counted.count`;
