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

/** The latest firmware and diagnostics status of one controller in a batch; a status absent when its `At` is null. */
export interface LatestStatuses {
  tenantUuid: string;
  controllerUuid: string;
  firmwareStatus: string | null;
  firmwareAt: string | null;
  diagnosticsStatus: string | null;
  diagnosticsAt: string | null;
}

/**
 * The controllers' latest firmware and diagnostics statuses (a JSON array of LatestStatuses, one per controller), each
 * unless a later one was applied already. The rows are locked first, in uuid order, as the live state consumer locks
 * them: updated in the batch's order they waited in a circle with it (a deadlock). MATERIALIZED keeps the locking
 * query apart, so its ORDER BY decides the order of the locks; a locked row is read in its newest version, and stays
 * so until the UPDATE, so whether a status is later than the stored one is decided there.
 */
export const recordLatestStatuses = sqlStatement<{ statuses: string }>({
  name: 'controller-events.record-latest-statuses',
  parameters: ['statuses'],
  sql: `WITH latest AS MATERIALIZED (
          SELECT c.uuid, s."firmwareStatus", s."firmwareAt", s."diagnosticsStatus", s."diagnosticsAt",
                 s."firmwareAt" IS NOT NULL
                   AND (c.firmware_status_at IS NULL OR c.firmware_status_at <= s."firmwareAt") AS firmware,
                 s."diagnosticsAt" IS NOT NULL
                   AND (c.diagnostics_status_at IS NULL OR c.diagnostics_status_at <= s."diagnosticsAt") AS diagnostics
            FROM jsonb_to_recordset(:statuses::jsonb)
                 AS s("tenantUuid" uuid, "controllerUuid" uuid, "firmwareStatus" text, "firmwareAt" timestamptz,
                      "diagnosticsStatus" text, "diagnosticsAt" timestamptz)
            JOIN assets.controllers c ON c.uuid = s."controllerUuid" AND c.tenant_uuid = s."tenantUuid"
           ORDER BY c.uuid
             FOR NO KEY UPDATE OF c
        )
        UPDATE assets.controllers c
           SET firmware_status = CASE WHEN l.firmware THEN l."firmwareStatus" ELSE c.firmware_status END,
               firmware_status_at = CASE WHEN l.firmware THEN l."firmwareAt" ELSE c.firmware_status_at END,
               diagnostics_status = CASE WHEN l.diagnostics THEN l."diagnosticsStatus" ELSE c.diagnostics_status END,
               diagnostics_status_at = CASE WHEN l.diagnostics THEN l."diagnosticsAt" ELSE c.diagnostics_status_at END
          FROM latest l
         WHERE c.uuid = l.uuid AND (l.firmware OR l.diagnostics)`,
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
  recordLatestStatuses,
  controllerExists,
  ...controllerEventsList.all,
];
