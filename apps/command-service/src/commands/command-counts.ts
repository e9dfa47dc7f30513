import { COMMAND_STATUSES } from '@cpc/ocpp-commands';
import type { CommandFilter } from '@cpc/contracts';
import { namedQuery } from '@cpc/database';
import type { DataSource, EntityManager } from 'typeorm';
import type { CommandRow } from './command-record.js';

/** A command entering `status`, leaving `previousStatus` (null when it was just created). */
export interface CountedChange {
  row: Pick<CommandRow, 'uuid' | 'tenant_uuid' | 'target_type' | 'type' | 'status'>;
  previousStatus: string | null;
}

/** Rows each count is spread over, so that a tenant's writers rarely wait for each other's commits. */
export const COMMAND_COUNT_SLOTS = 32;

/**
 * The count row (slot) of a command: its uuid's last byte modulo the slots, as control.command_count_slot(uuid)
 * computes it in SQL (the migration that introduced slots counted the existing commands with it).
 */
export function commandCountSlot(commandUuid: string): number {
  return Number.parseInt(commandUuid.slice(-2), 16) % COMMAND_COUNT_SLOTS;
}

const ADD_TO_COUNT =
  'INSERT INTO control.command_counts AS c (tenant_uuid, target_type, type, status, slot, count)';
const ON_COUNTED =
  'ON CONFLICT (tenant_uuid, target_type, type, status, slot) DO UPDATE SET count = c.count + EXCLUDED.count';

/**
 * Counts a batch of commands just created, as a CTE of the statement creating them: `created` names the CTE
 * returning their rows, `input` the rows they were made from, whose `count_rank` orders their count keys by
 * compareCountKeys, so the count rows are locked in the global order.
 */
export function countCreatedBatchSql(created: string, input: string): string {
  return `${ADD_TO_COUNT}
          SELECT n.tenant_uuid, n.target_type, n.type, n.status, control.command_count_slot(n.uuid), count(*)
            FROM ${created} n JOIN ${input} i ON i.uuid = n.uuid
           GROUP BY 1, 2, 3, 4, 5
           ORDER BY min(i.count_rank)
          ${ON_COUNTED}`;
}

/** A count row: a status of a tenant's commands of a target type and type, in one slot. */
export type CountKey = [tenantUuid: string, targetType: string, type: string, status: string, slot: number];

const lifecycleIndex = (status: string) => (COMMAND_STATUSES as readonly string[]).indexOf(status);

/** Strings by code unit, as PostgreSQL's "C" collation and uuid comparison order them. */
const compareCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one global order every transaction locks count rows in (tenant, target type, type, lifecycle order of the
 * status, then slot), so two transactions never wait for each other in a circle. COUNT_LOCK_ORDER is the same order
 * in SQL.
 */
export function compareCountKeys(a: CountKey, b: CountKey): number {
  return (
    compareCodeUnits(a[0], b[0]) ||
    compareCodeUnits(a[1], b[1]) ||
    compareCodeUnits(a[2], b[2]) ||
    lifecycleIndex(a[3]) - lifecycleIndex(b[3]) ||
    a[4] - b[4]
  );
}

/** compareCountKeys as an ORDER BY over columns tenant_uuid (uuid), target_type, type, status, slot. */
const COUNT_LOCK_ORDER = `tenant_uuid, target_type COLLATE "C", type COLLATE "C",
  array_position(ARRAY[${COMMAND_STATUSES.map((status) => `'${status}'`).join(', ')}], status::text), slot`;

/**
 * A SELECT moving the counts by `changes` (an SQL query yielding rows tenant_uuid, target_type, type, status,
 * command uuid, delta), through control.move_command_counts in the global lock order: for a statement that changes
 * commands and moves their counts at once (as its last step, see countStatusChanges).
 */
export function moveCountsSql(changes: string): string {
  const ordered = (column: string, cast: string) =>
    `array_agg(${column} ORDER BY ${COUNT_LOCK_ORDER})::${cast}`;
  return `SELECT control.move_command_counts(${ordered('tenant_uuid', 'uuid[]')}, ${ordered('target_type', 'text[]')},
            ${ordered('type', 'text[]')}, ${ordered('status', 'text[]')}, ${ordered('slot', 'smallint[]')},
            ${ordered('delta', 'bigint[]')})
      FROM (SELECT tenant_uuid, target_type, type, status, control.command_count_slot(uuid) AS slot, sum(delta) AS delta
              FROM (${changes}) AS change(tenant_uuid, target_type, type, status, uuid, delta)
             GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0) AS moved`;
}

/**
 * Moves the per-tenant counts (control.command_counts) along with status changes, in the caller's transaction and
 * as its last step. A command is counted in its own slot. Every transaction touches the count rows in one global
 * order (tenant, target type, type, lifecycle order of the status, then slot), and only after the command rows it
 * changed, so two transactions never wait for each other in a circle.
 */
export async function countStatusChanges(manager: EntityManager, changes: CountedChange[]): Promise<void> {
  const deltas = new Map<string, { key: CountKey; delta: number }>();
  const add = (row: CountedChange['row'], status: string, delta: number) => {
    const key: CountKey = [row.tenant_uuid, row.target_type, row.type, status, commandCountSlot(row.uuid)];
    const id = key.join('|');
    deltas.set(id, { key, delta: (deltas.get(id)?.delta ?? 0) + delta });
  };
  for (const { row, previousStatus } of changes) {
    if (previousStatus !== null) add(row, previousStatus, -1);
    add(row, row.status, 1);
  }
  const ordered = [...deltas.values()]
    .filter(({ delta }) => delta !== 0)
    .sort((a, b) => compareCountKeys(a.key, b.key));
  if (ordered.length === 0) return;
  // One round trip for all (control.move_command_counts applies them in this order): the rows locked so far stay
  // locked until commit, and creations wait for them.
  await namedQuery(manager, {
    name: 'commands.move-counts',
    text: 'SELECT control.move_command_counts($1, $2, $3, $4, $5, $6)',
    values: [
      ordered.map(({ key }) => key[0]),
      ordered.map(({ key }) => key[1]),
      ordered.map(({ key }) => key[2]),
      ordered.map(({ key }) => key[3]),
      ordered.map(({ key }) => key[4]),
      ordered.map(({ delta }) => delta),
    ],
  });
}

/**
 * How many of the tenant's commands match a filter without a target (the target filter counts its index range): the
 * sum over the matching keys' slots.
 */
export async function countCommands(
  dataSource: DataSource,
  tenantUuid: string,
  filter: Omit<CommandFilter, 'target_uuid'>,
): Promise<number> {
  const conditions = ['tenant_uuid = $1'];
  const values: unknown[] = [tenantUuid];
  for (const column of ['target_type', 'type', 'status'] as const) {
    const value = filter[column];
    if (value === undefined) continue;
    values.push(value);
    conditions.push(`${column} = $${values.length}`);
  }
  const [{ total }] = await dataSource.query<{ total: string }[]>(
    `SELECT COALESCE(sum(count), 0) AS total FROM control.command_counts WHERE ${conditions.join(' AND ')}`,
    values,
  );
  return Number(total);
}
