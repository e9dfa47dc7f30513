import { randomUUID } from 'node:crypto';
import type { CommandStatusChangedEvent } from '@cpc/contracts';

/** A command status event as command-service publishes it, for a reset of the controller `controllerUuid`. */
export function commandStatusChangedEvent(fields: {
  tenantUuid: string;
  commandUuid: string;
  status: string;
  controllerUuid: string;
  occurredAt?: string;
}): CommandStatusChangedEvent {
  return {
    eventId: randomUUID(),
    occurredAt: fields.occurredAt ?? new Date().toISOString(),
    tenantUuid: fields.tenantUuid,
    data: {
      command: {
        command_uuid: fields.commandUuid,
        target_type: 'controller',
        target_uuid: fields.controllerUuid,
        type: 'reset',
        status: fields.status,
        result: null,
        created_at: '2026-01-01T00:00:00Z',
        completed_at: null,
      },
      previousStatus: null,
      controllerUuid: fields.controllerUuid,
    },
  };
}
