import { randomUUID } from 'node:crypto';
import { type CommandStatusChangedEvent, CommandSubjects, type CommandView } from '@cpc/contracts';
import type { TransactionalOutbox } from '@cpc/database';
import type { EntityManager } from 'typeorm';
import { countStatusChanges } from './command-counts.js';
import type { CommandRow } from './command-row.js';

/** ISO 8601 in UTC with seconds precision and `Z`, as the spec writes date-times. */
function isoSeconds(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
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
