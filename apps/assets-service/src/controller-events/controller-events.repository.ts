import { pagedListStatements, sqlStatement } from '@cpc/database';

/** The statements of assets.controller_events. */

/**
 * Whether the controller of `row` (its uuid and tenant columns) exists, looked up per row: as a LATERAL subquery with
 * LIMIT it cannot become a semi-join, which the planner hashed over every controller for a batch it took for 100 rows
 * (jsonb_to_recordset's estimate; controller-events.plans.integration.spec.ts).
 */
export function controllerOfRowExists(controllerUuid: string, tenantUuid: string): string {
  return `CROSS JOIN LATERAL (SELECT FROM assets.controllers c
                               WHERE c.uuid = ${controllerUuid} AND c.tenant_uuid = ${tenantUuid} LIMIT 1) AS known`;
}

/**
 * Events of controllers the tenant has, given as a JSON array of LoggedEvent; an event of an unknown or deleted
 * controller, or a repeat (also within the array), adds nothing.
 */
export const recordControllerEvents = sqlStatement<{ events: string }>({
  name: 'controller-events.record',
  parameters: ['events'],
  sql: `INSERT INTO assets.controller_events (uuid, tenant_uuid, controller_uuid, kind, occurred_at, details)
       SELECT DISTINCT ON (e.uuid) e.uuid, e."tenantUuid", e."controllerUuid", e.kind, e."occurredAt", e.details
         FROM jsonb_to_recordset(:events::jsonb)
              AS e(uuid uuid, "tenantUuid" uuid, "controllerUuid" uuid, kind text, "occurredAt" timestamptz, details jsonb)
              ${controllerOfRowExists('e."controllerUuid"', 'e."tenantUuid"')}
        ORDER BY e.uuid
       ON CONFLICT (uuid) DO NOTHING`,
});

/** The controller's latest firmware status, unless a later one was applied already. */
export const recordFirmwareStatus = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  status: string | null;
  occurredAt: string;
}>({
  name: 'controller-events.record-firmware-status',
  parameters: ['tenantUuid', 'controllerUuid', 'status', 'occurredAt'],
  sql: `UPDATE assets.controllers SET firmware_status = :status, firmware_status_at = :occurredAt
        WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid
          AND (firmware_status_at IS NULL OR firmware_status_at <= :occurredAt)`,
});

/** The controller's latest diagnostics (log upload) status, unless a later one was applied already. */
export const recordDiagnosticsStatus = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  status: string | null;
  occurredAt: string;
}>({
  name: 'controller-events.record-diagnostics-status',
  parameters: ['tenantUuid', 'controllerUuid', 'status', 'occurredAt'],
  sql: `UPDATE assets.controllers SET diagnostics_status = :status, diagnostics_status_at = :occurredAt
        WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid
          AND (diagnostics_status_at IS NULL OR diagnostics_status_at <= :occurredAt)`,
});

/** A row (without columns) when the tenant has the controller: its log can be listed. */
export const controllerExists = sqlStatement<
  { controllerUuid: string; tenantUuid: string },
  Record<never, never>
>({
  name: 'controller-events.controller-exists',
  parameters: ['controllerUuid', 'tenantUuid'],
  sql: 'SELECT FROM assets.controllers WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid',
});

interface ControllerEventsFilter {
  tenantUuid: string;
  controllerUuid: string;
  kind: string | null;
  occurredFrom: string | null;
  occurredTo: string | null;
}

const CONTROLLER_EVENTS = `FROM assets.controller_events
        WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid
          AND (:kind::text IS NULL OR kind = :kind::text)
          AND (:occurredFrom::timestamptz IS NULL OR occurred_at >= :occurredFrom::timestamptz)
          AND (:occurredTo::timestamptz IS NULL OR occurred_at < :occurredTo::timestamptz)`;

const FILTER_PARAMETERS = ['tenantUuid', 'controllerUuid', 'kind', 'occurredFrom', 'occurredTo'] as const;

export interface ControllerEventRow {
  uuid: string;
  kind: string;
  occurred_at: Date;
  details: Record<string, string | number | boolean | null>;
}

/**
 * A controller's events, newest first (ties by uuid), by page number or by cursor: the order of
 * controller_events_newest_idx, so a page by cursor starts in the index at its key.
 */
export const controllerEventsList = pagedListStatements<ControllerEventsFilter, ControllerEventRow>({
  name: 'controller-events.list',
  select: 'uuid, kind, occurred_at, details',
  from: CONTROLLER_EVENTS,
  filterParameters: FILTER_PARAMETERS,
  key: [
    { column: 'occurred_at', parameter: 'cursorAt', type: 'timestamptz', order: 'DESC' },
    { column: 'uuid', parameter: 'cursorUuid', type: 'uuid', order: 'ASC' },
  ],
});

/** For the SQL snapshots. */
export const CONTROLLER_EVENTS_STATEMENTS = [
  recordControllerEvents,
  recordFirmwareStatus,
  recordDiagnosticsStatus,
  controllerExists,
  ...controllerEventsList.all,
];
