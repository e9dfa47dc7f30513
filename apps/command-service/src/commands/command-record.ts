import { randomUUID } from 'node:crypto';
import {
  type CommandResult,
  type CommandStatusChangedEvent,
  CommandSubjects,
  type CommandView,
} from '@cpc/contracts';
import type { TransactionalOutbox } from '@cpc/database';
import type { DataSource, EntityManager } from 'typeorm';
import { countStatusChanges } from './command-counts.js';

/** The columns of control.commands a view and a status event need. */
export interface CommandRow {
  uuid: string;
  tenant_uuid: string;
  controller_uuid: string;
  type: string;
  target_type: string;
  target_uuid: string;
  status: string;
  result: CommandResult | null;
  created_at: Date;
  completed_at: Date | null;
}

const ROW_COLUMNS = [
  'uuid',
  'tenant_uuid',
  'controller_uuid',
  'type',
  'target_type',
  'target_uuid',
  'status',
  'result',
  'created_at',
  'completed_at',
];

/** For SELECT and RETURNING clauses. */
export const COMMAND_ROW_COLUMNS = ROW_COLUMNS.join(', ');

/** ISO 8601 in UTC with seconds precision and `Z`, as the spec writes date-times. */
function isoSeconds(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** isoSeconds in SQL, for events PostgreSQL builds: `column` (a timestamptz expression) as the view writes it. */
export function isoSecondsSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

export function toCommandView(row: CommandRow): CommandView {
  return {
    command_uuid: row.uuid,
    target_type: row.target_type,
    target_uuid: row.target_uuid,
    type: row.type,
    status: row.status,
    result: row.result,
    created_at: isoSeconds(row.created_at),
    completed_at: row.completed_at ? isoSeconds(row.completed_at) : null,
  };
}

/** The transactional outbox's table (its columns: see TransactionalOutboxOptions). */
export const CONTROL_OUTBOX_TABLE = 'control.outbox_events';

/** The status event of a command that just entered `row.status`. */
export function statusChangedEvent(
  row: CommandRow,
  previousStatus: string | null,
): CommandStatusChangedEvent {
  return {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    tenantUuid: row.tenant_uuid,
    data: { command: toCommandView(row), previousStatus, controllerUuid: row.controller_uuid },
  };
}

/**
 * Writes the status events of commands that just changed (as they are now) into the outbox and moves the counts, in
 * the transaction that changed them, after it changed the command rows.
 */
export async function recordStatusChanges(
  outbox: TransactionalOutbox,
  manager: EntityManager,
  changes: { row: CommandRow; previousStatus: string | null }[],
): Promise<void> {
  await outbox.add(
    manager,
    changes.map(({ row, previousStatus }) => ({
      subject: CommandSubjects.statusChanged,
      envelope: statusChangedEvent(row, previousStatus),
    })),
  );
  await countStatusChanges(manager, changes);
}

/** The rows of an UPDATE … RETURNING (TypeORM answers UPDATE and DELETE as `[rows, affected count]` on PostgreSQL). */
export async function updatedRows<T>(
  runner: DataSource | EntityManager,
  query: string,
  parameters: unknown[],
): Promise<T[]> {
  const [rows] = await runner.query<[T[], number]>(query, parameters);
  return rows;
}
