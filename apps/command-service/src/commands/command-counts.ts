import { randomInt } from 'node:crypto';
import { COMMAND_STATUSES } from '@cpc/ocpp-commands';
import type { CommandFilter } from '@cpc/contracts';
import { runStatement } from '@cpc/database';
import type { DataSource, EntityManager } from 'typeorm';
import {
  COMMAND_COUNT_SLOTS,
  moveCommandCounts,
  sumCommandCounts,
  type SumCommandCountsParameters,
} from '../repositories/command-counts.repository.js';
import type { CommandRow } from './command-row.js';

/** A command entering `status`, leaving `previousStatus` (null when it was just created). */
export interface CountedChange {
  row: Pick<CommandRow, 'uuid' | 'tenant_uuid' | 'target_type' | 'type' | 'status'>;
  previousStatus: string | null;
}

/**
 * The count rows (slot) a statement moves its counts in, drawn for each statement: the commands entering a status are
 * counted in it, those leaving one in slot + COMMAND_COUNT_SLOTS (a row of negative counts, so that a batch of endings
 * never locks a row a creation writes). Readers sum every slot, so any slot holds any command's count; one slot per
 * statement moves one row per count however many commands it changes, and concurrent statements of one tenant meet on
 * a row one time in COMMAND_COUNT_SLOTS (CountSlotsPerStatement1763899000000).
 */
export function batchCountSlot(): number {
  return randomInt(COMMAND_COUNT_SLOTS);
}

/** A count row: a status of a tenant's commands of a target type and type, in one slot. */
export type CountKey = [tenantUuid: string, targetType: string, type: string, status: string, slot: number];

const lifecycleIndex = (status: string) => (COMMAND_STATUSES as readonly string[]).indexOf(status);

/** Strings by code unit, as PostgreSQL's "C" collation and uuid comparison order them. */
const compareCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one global order every transaction locks count rows in (tenant, target type, type, lifecycle order of the
 * status, then slot), so two transactions never wait for each other in a circle. COUNT_LOCK_ORDER
 * (command-counts.repository) is the same order in SQL.
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

/**
 * Moves the per-tenant counts (control.command_counts) along with status changes, in the caller's transaction and
 * as its last step, in one slot drawn for the call (batchCountSlot). Every transaction touches the count rows in one
 * global order (tenant, target type, type, lifecycle order of the status, then slot), and only after the command rows
 * it changed, so two transactions never wait for each other in a circle.
 */
export async function countStatusChanges(
  manager: EntityManager,
  changes: CountedChange[],
  countSlot = batchCountSlot(),
): Promise<void> {
  const deltas = new Map<string, { key: CountKey; delta: number }>();
  const add = (row: CountedChange['row'], status: string, delta: number) => {
    const slot = delta < 0 ? countSlot + COMMAND_COUNT_SLOTS : countSlot;
    const key: CountKey = [row.tenant_uuid, row.target_type, row.type, status, slot];
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
  await runStatement(manager, moveCommandCounts, {
    tenantUuids: ordered.map(({ key }) => key[0]),
    targetTypes: ordered.map(({ key }) => key[1]),
    types: ordered.map(({ key }) => key[2]),
    statuses: ordered.map(({ key }) => key[3]),
    slots: ordered.map(({ key }) => key[4]),
    deltas: ordered.map(({ delta }) => delta),
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
  const columns = (['target_type', 'type', 'status'] as const).filter(
    (column) => filter[column] !== undefined,
  );
  const parameters: SumCommandCountsParameters = {
    tenantUuid,
    targetType: filter.target_type,
    type: filter.type,
    status: filter.status,
  };
  const [{ total }] = await runStatement(dataSource, sumCommandCounts(columns), parameters);
  return Number(total);
}
