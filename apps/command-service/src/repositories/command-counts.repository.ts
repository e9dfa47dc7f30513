import type { CommandFilter } from '@cpc/contracts';
import { sqlStatement } from '@cpc/database';
import { COMMAND_STATUSES } from '@cpc/ocpp-commands';

/**
 * The statements of control.command_counts: per tenant, target type, type, status and slot, how many commands there
 * are (see command-counts.ts for the slots and the global order count rows are locked in).
 */

/**
 * Rows each count is spread over, so that a tenant's writers rarely wait for each other's commits: slots 0–31 count
 * the commands entering a status, 32–63 (slot + 32) those leaving it. A statement counts all its changes in one slot
 * it draws (batchCountSlot): one row per count it moves, not one per command.
 */
export const COMMAND_COUNT_SLOTS = 32;

const ADD_TO_COUNT =
  'INSERT INTO control.command_counts AS c (tenant_uuid, target_type, type, status, slot, count)';
const ON_COUNTED =
  'ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = c.count + EXCLUDED.count';

/**
 * Counts a batch of commands just created, as a CTE of the statement creating them, in slot `slot` (an SQL expression):
 * `created` names the CTE returning their rows, `input` the rows they were made from, whose `count_rank` orders their
 * count keys by compareCountKeys, so the count rows are locked in the global order.
 */
export function countCreatedBatchSql(created: string, input: string, slot: string): string {
  return `${ADD_TO_COUNT}
          SELECT n.tenant_uuid, n.target_type, n.type, n.status, ${slot}, count(*)
            FROM ${created} n JOIN ${input} i ON i.uuid = n.uuid
           GROUP BY 1, 2, 3, 4, 5
           ORDER BY min(i.count_rank)
          ${ON_COUNTED}`;
}

/** compareCountKeys as an ORDER BY over columns tenant_uuid (uuid), target_type, type, status, slot. */
const COUNT_LOCK_ORDER = `tenant_uuid, target_type COLLATE "C", type COLLATE "C",
  array_position(ARRAY[${COMMAND_STATUSES.map((status) => `'${status}'`).join(', ')}], status::text), slot`;

/**
 * A SELECT moving the counts by `changes` (an SQL query yielding rows tenant_uuid, target_type, type, status,
 * command uuid, delta) in slot `slot` (an SQL expression; its exit slot for the decrements), through
 * control.move_command_counts in the global lock order: for a statement that changes commands and moves their counts
 * at once (as its last step, see countStatusChanges).
 */
export function moveCountsSql(changes: string, slot: string): string {
  const ordered = (column: string, cast: string) =>
    `array_agg(${column} ORDER BY ${COUNT_LOCK_ORDER})::${cast}`;
  return `SELECT control.move_command_counts(${ordered('tenant_uuid', 'uuid[]')}, ${ordered('target_type', 'text[]')},
            ${ordered('type', 'text[]')}, ${ordered('status', 'text[]')}, ${ordered('slot', 'smallint[]')},
            ${ordered('delta', 'bigint[]')})
      FROM (SELECT tenant_uuid, target_type, type, status,
                   ${slot} + CASE WHEN delta < 0 THEN ${COMMAND_COUNT_SLOTS} ELSE 0 END AS slot,
                   sum(delta) AS delta
              FROM (${changes}) AS change(tenant_uuid, target_type, type, status, uuid, delta)
             GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0) AS moved`;
}

/**
 * Moves count rows by deltas, one array element per row, already in the global lock order (control.move_command_counts
 * applies them in that order).
 */
export const moveCommandCounts = sqlStatement<{
  tenantUuids: string[];
  targetTypes: string[];
  types: string[];
  statuses: string[];
  slots: number[];
  deltas: number[];
}>({
  name: 'commands.move-counts',
  prepared: true,
  parameters: ['tenantUuids', 'targetTypes', 'types', 'statuses', 'slots', 'deltas'],
  sql: 'SELECT control.move_command_counts(:tenantUuids, :targetTypes, :types, :statuses, :slots, :deltas)',
});

/** The filters a count can be narrowed by (a target's commands are counted in their index range instead). */
export type CountFilterColumn = Exclude<keyof CommandFilter, 'target_uuid'>;

/** Parameter name of each filter column. */
const COUNT_FILTER_PARAMETERS = {
  target_type: 'targetType',
  type: 'type',
  status: 'status',
} as const satisfies Record<CountFilterColumn, string>;

/** The parameters of sumCommandCounts. */
export type SumCommandCountsParameters = { tenantUuid: string } & Partial<
  Record<(typeof COUNT_FILTER_PARAMETERS)[CountFilterColumn], string>
>;

/**
 * How many of the tenant's commands match filters on `columns` (in this order): the sum over the matching keys'
 * slots. Unprepared, one text per set of columns.
 */
export function sumCommandCounts(columns: readonly CountFilterColumn[]) {
  const conditions = [
    'tenant_uuid = :tenantUuid',
    ...columns.map((c) => `${c} = :${COUNT_FILTER_PARAMETERS[c]}`),
  ];
  return sqlStatement<SumCommandCountsParameters, { total: string }>({
    name: `command-counts.sum${columns.map((column) => `:${column}`).join('')}`,
    parameters: ['tenantUuid', ...columns.map((column) => COUNT_FILTER_PARAMETERS[column])],
    sql: `SELECT COALESCE(sum(count), 0) AS total FROM control.command_counts WHERE ${conditions.join(' AND ')}`,
  });
}

/** For the SQL snapshots: the fixed statements and one of each kind built per request. */
export const COMMAND_COUNTS_STATEMENTS = [
  moveCommandCounts,
  sumCommandCounts([]),
  sumCommandCounts(['target_type', 'type', 'status']),
];
