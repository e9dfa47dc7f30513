import pg from 'pg';

const TYPES = ['soft_reset', 'hard_reset', 'clear_cache', 'unlock', 'change_availability', 'remote_stop'];
const TERMINAL = ['accepted', 'rejected', 'timeout', 'failed'];
/** SQLSTATE 42501 */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Fills control.commands with `count` finished commands of the tenant in one statement (generate_series): spread over
 * 30 days, `targets` controllers, the types and terminal statuses above. The list's filters then have real work.
 */
export async function seedCommands(
  databaseUrl: string,
  tenantUuid: string,
  count: number,
  targets: number,
): Promise<{ seconds: number; sampleTarget: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(
      `WITH targets AS (SELECT array_agg(gen_random_uuid()) AS uuids FROM generate_series(1, $3))
       INSERT INTO control.commands
         (uuid, tenant_uuid, type, target_type, target_uuid, controller_uuid, target, parameters, status, result,
          valid_until, created_at, sent_at, completed_at, attempts)
       SELECT gen_random_uuid(), $1, ($4::text[])[1 + i % cardinality($4::text[])], 'controller',
              t.uuids[1 + i % $3], t.uuids[1 + i % $3], '{"targetType":"controller"}', '{}',
              ($5::text[])[1 + (i / 7) % cardinality($5::text[])], '{"status":"Accepted"}',
              c.at, c.at, c.at, c.at + interval '1 second', 1
       FROM generate_series(1, $2) AS i, targets t,
            LATERAL (SELECT now() - (i * (interval '30 days' / $2)) AS at) c`,
      [tenantUuid, count, targets, TYPES, TERMINAL],
    );
    // total_pages comes from these per-tenant counts, which command-service keeps with every status change.
    await client.query(
      `INSERT INTO control.command_counts (tenant_uuid, target_type, type, status, slot, count)
       SELECT tenant_uuid, target_type, type, status, control.command_count_slot(uuid), count(*)
         FROM control.commands WHERE tenant_uuid = $1
        GROUP BY tenant_uuid, target_type, type, status, control.command_count_slot(uuid)
       ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = EXCLUDED.count`,
      [tenantUuid],
    );
    // As autovacuum would soon after such an insert: without a visibility map every index-only count reads the heap.
    await client.query('VACUUM (ANALYZE) control.commands');
    // The seed's 900 MB of dirty pages (table and indexes) are written out now, by setup, instead of by a checkpoint
    // during the measured command steps (the first steps after an unflushed seed had p99s of 350-520 ms). A role that
    // may not (a running platform's, neither superuser nor pg_checkpoint) leaves it to the server.
    await client.query('CHECKPOINT').catch((error: unknown) => {
      if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
    });
    const sample = await client.query<{ target_uuid: string }>(
      'SELECT target_uuid FROM control.commands WHERE tenant_uuid = $1 LIMIT 1',
      [tenantUuid],
    );
    return {
      seconds: Math.round((performance.now() - started) / 100) / 10,
      sampleTarget: sample.rows[0].target_uuid,
    };
  } finally {
    await client.end();
  }
}
