import type { ConfigurationSourceMessage, ControllerConfigurationEntryView } from '@cpc/contracts';
import { type SqlStatement, sqlStatement } from '@cpc/database';
import type { ConfigurationEntry } from './configuration-entries.js';

/**
 * The statements of assets.controller_configuration and of the 2.0.1 reports on their way to it: the parts of a
 * NotifyReport until it is complete (assets.controller_report_parts) and the command that asked for each report
 * (assets.controller_report_requests).
 */

/**
 * Makes the parts of one report (a controller's request) take turns until the transaction ends, so the part that
 * completes it is always seen.
 */
export const lockReport = sqlStatement<{ controllerUuid: string; requestId: number }>({
  name: 'controller-configuration.lock-report',
  parameters: ['controllerUuid', 'requestId'],
  sql: `SELECT pg_advisory_xact_lock(hashtext(:controllerUuid::text), :requestId)`,
});

/** Holds one part of a report of a controller the tenant has; a part received twice is kept once. */
export const insertReportPart = sqlStatement<{
  controllerUuid: string;
  requestId: number;
  seqNo: number;
  tbc: boolean;
  reportData: string;
  receivedAt: Date;
  tenantUuid: string;
}>({
  name: 'controller-configuration.insert-report-part',
  parameters: ['controllerUuid', 'requestId', 'seqNo', 'tbc', 'reportData', 'receivedAt', 'tenantUuid'],
  sql: `INSERT INTO assets.controller_report_parts (controller_uuid, request_id, seq_no, tbc, report_data, received_at)
         SELECT :controllerUuid, :requestId, :seqNo, :tbc, :reportData::jsonb, :receivedAt
          WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid)
         ON CONFLICT DO NOTHING`,
});

/** Parts of the controller's other reports that never completed, after their time. */
export const deleteStaleReportParts = sqlStatement<{
  controllerUuid: string;
  requestId: number;
  reportedAt: Date;
  ttlMs: number;
}>({
  name: 'controller-configuration.delete-stale-report-parts',
  parameters: ['controllerUuid', 'requestId', 'reportedAt', 'ttlMs'],
  sql: `DELETE FROM assets.controller_report_parts
          WHERE controller_uuid = :controllerUuid AND request_id <> :requestId
            AND received_at < :reportedAt::timestamptz - :ttlMs * interval '1 millisecond'`,
});

/** The parts of one report held so far, in seqNo order. */
export const reportParts = sqlStatement<
  { controllerUuid: string; requestId: number },
  { seq_no: number; tbc: boolean; report_data: unknown[] }
>({
  name: 'controller-configuration.report-parts',
  parameters: ['controllerUuid', 'requestId'],
  sql: `SELECT seq_no, tbc, report_data FROM assets.controller_report_parts
          WHERE controller_uuid = :controllerUuid AND request_id = :requestId ORDER BY seq_no`,
});

/** The command that asked for a report, when known. */
export const reportRequestCommand = sqlStatement<
  { controllerUuid: string; requestId: number },
  { command_uuid: string }
>({
  name: 'controller-configuration.report-request-command',
  parameters: ['controllerUuid', 'requestId'],
  sql: `SELECT command_uuid FROM assets.controller_report_requests
         WHERE controller_uuid = :controllerUuid AND request_id = :requestId`,
});

/** The parts of a report that has been stored. */
export const deleteReportParts = sqlStatement<{ controllerUuid: string; requestId: number }>({
  name: 'controller-configuration.delete-report-parts',
  parameters: ['controllerUuid', 'requestId'],
  sql: `DELETE FROM assets.controller_report_parts WHERE controller_uuid = :controllerUuid AND request_id = :requestId`,
});

/** The command that asked for a report, for a controller the tenant has; the first one known stays. */
export const insertReportRequest = sqlStatement<{
  controllerUuid: string;
  requestId: number;
  commandUuid: string;
  requestedAt: Date;
  tenantUuid: string;
}>({
  name: 'controller-configuration.insert-report-request',
  parameters: ['controllerUuid', 'requestId', 'commandUuid', 'requestedAt', 'tenantUuid'],
  sql: `INSERT INTO assets.controller_report_requests (controller_uuid, request_id, command_uuid, requested_at)
         SELECT :controllerUuid, :requestId, :commandUuid, :requestedAt
          WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid)
         ON CONFLICT DO NOTHING`,
});

/**
 * Entries of the report stored before its command was known name it now: the command stored for the request, which
 * insertReportRequest wrote only for a controller of the caller's tenant (and the first one known stays).
 */
export const nameReportCommand = sqlStatement<{ controllerUuid: string; requestId: number }>({
  name: 'controller-configuration.name-report-command',
  parameters: ['controllerUuid', 'requestId'],
  sql: `UPDATE assets.controller_configuration c SET source_command_uuid = r.command_uuid
          FROM assets.controller_report_requests r
         WHERE r.controller_uuid = :controllerUuid AND r.request_id = :requestId
           AND c.controller_uuid = r.controller_uuid AND c.source_message = 'NotifyReport'
           AND c.source_request_id = r.request_id AND c.source_command_uuid IS NULL`,
});

/** The stored values of the given keys. */
export const configurationValues = sqlStatement<
  { controllerUuid: string; keys: string[] },
  { key: string; value: string | null }
>({
  name: 'controller-configuration.values',
  parameters: ['controllerUuid', 'keys'],
  sql: `SELECT key, value FROM assets.controller_configuration
         WHERE controller_uuid = :controllerUuid AND key = ANY(:keys::text[])`,
});

/** The controller, when the tenant has it. */
export const tenantController = sqlStatement<
  { tenantUuid: string; controllerUuid: string },
  { uuid: string }
>({
  name: 'controller-configuration.tenant-controller',
  parameters: ['tenantUuid', 'controllerUuid'],
  sql: `SELECT uuid FROM assets.controllers WHERE tenant_uuid = :tenantUuid AND uuid = :controllerUuid`,
});

/**
 * An entry as writeConfigurationEntries reads it (an element of its JSON array), with `undefined` (keep what is
 * stored) spelled out for SQL.
 */
export function configurationEntryRecord(entry: ConfigurationEntry) {
  return {
    key: entry.key,
    component: entry.component,
    component_instance: entry.componentInstance,
    evse_id: entry.evseId,
    connector_id: entry.connectorId,
    variable: entry.variable,
    variable_instance: entry.variableInstance,
    attribute_type: entry.attributeType,
    value: entry.value ?? null,
    has_value: entry.value !== undefined,
    mutability: entry.mutability ?? null,
    has_mutability: entry.mutability !== undefined,
    characteristics: entry.characteristics ?? null,
    has_characteristics: entry.characteristics !== undefined,
    status: entry.status,
  };
}

const ENTRY_RECORD_COLUMNS = `key text, component text, component_instance text, evse_id integer, connector_id integer,
  variable text, variable_instance text, attribute_type text, value text, has_value boolean, mutability text,
  has_mutability boolean, characteristics jsonb, has_characteristics boolean, status text`;

/**
 * Inserts new entries (a JSON array of configurationEntryRecord, each key once) of a controller the tenant has and
 * updates stored ones that are not newer than the report.
 */
export const writeConfigurationEntries = sqlStatement<{
  controllerUuid: string;
  tenantUuid: string;
  entries: string;
  sourceMessage: ConfigurationSourceMessage;
  sourceCommandUuid: string | null;
  sourceRequestId: number | null;
  reportedAt: Date;
}>({
  name: 'controller-configuration.write-entries',
  parameters: [
    'controllerUuid',
    'tenantUuid',
    'entries',
    'sourceMessage',
    'sourceCommandUuid',
    'sourceRequestId',
    'reportedAt',
  ],
  sql: `WITH input AS (
         SELECT * FROM jsonb_to_recordset(:entries::jsonb) AS e(${ENTRY_RECORD_COLUMNS})
          WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = :controllerUuid AND tenant_uuid = :tenantUuid)
       ), updated AS (
         UPDATE assets.controller_configuration c
            SET value = CASE WHEN i.has_value THEN i.value ELSE c.value END,
                mutability = CASE WHEN i.has_mutability THEN i.mutability ELSE c.mutability END,
                characteristics = CASE WHEN i.has_characteristics THEN i.characteristics ELSE c.characteristics END,
                status = i.status, source_message = :sourceMessage, source_command_uuid = :sourceCommandUuid,
                source_request_id = :sourceRequestId, reported_at = :reportedAt
           FROM input i
          WHERE c.controller_uuid = :controllerUuid AND c.key = i.key COLLATE "C" AND c.reported_at <= :reportedAt
         RETURNING c.key
       )
       INSERT INTO assets.controller_configuration AS c (controller_uuid, key, tenant_uuid, component,
                   component_instance, evse_id, connector_id, variable, variable_instance, attribute_type, value,
                   mutability, characteristics, status, source_message, source_command_uuid, source_request_id,
                   reported_at)
       SELECT :controllerUuid, i.key, :tenantUuid, i.component, i.component_instance, i.evse_id, i.connector_id,
              i.variable, i.variable_instance, i.attribute_type, i.value, i.mutability, i.characteristics, i.status,
              :sourceMessage, :sourceCommandUuid, :sourceRequestId, :reportedAt
         FROM input i
        WHERE i.key NOT IN (SELECT key FROM updated)
       ON CONFLICT (controller_uuid, key) DO NOTHING`,
});

/** Which of the list's optional filters a request uses. */
export interface ConfigurationListFilters {
  component: boolean;
  keyPrefix: boolean;
}

/** A controller's entries; `component` and `keyPattern` (a LIKE pattern) only for the variants that filter by them. */
export interface ConfigurationListFilter {
  tenantUuid: string;
  controllerUuid: string;
  component?: string;
  keyPattern?: string;
}

const VIEW_COLUMNS = `key, component, component_instance, evse_id, connector_id, variable, variable_instance,
  attribute_type, value, mutability, characteristics, status, source_message, source_command_uuid,
  to_char(reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS reported_at`;

export interface ConfigurationListStatements {
  page: SqlStatement<
    ConfigurationListFilter & { limit: number; offset: number },
    ControllerConfigurationEntryView
  >;
  count: SqlStatement<ConfigurationListFilter, { total: number }>;
}

/** A page of the list, by key, and its count, filtered by `filters`. */
function configurationListStatements(filters: ConfigurationListFilters): ConfigurationListStatements {
  const parameters: (keyof ConfigurationListFilter)[] = ['tenantUuid', 'controllerUuid'];
  const where = ['tenant_uuid = :tenantUuid', 'controller_uuid = :controllerUuid'];
  if (filters.component) {
    parameters.push('component');
    where.push('component = :component');
  }
  if (filters.keyPrefix) {
    parameters.push('keyPattern');
    where.push('key LIKE :keyPattern');
  }
  const condition = where.join(' AND ');
  const by = [filters.component && 'component', filters.keyPrefix && 'key-prefix']
    .filter(Boolean)
    .join('-and-');
  const name = `controller-configuration.list${by ? `-by-${by}` : ''}`;
  return {
    page: sqlStatement<
      ConfigurationListFilter & { limit: number; offset: number },
      ControllerConfigurationEntryView
    >({
      name,
      parameters: [...parameters, 'limit', 'offset'],
      sql: `SELECT ${VIEW_COLUMNS}
          FROM assets.controller_configuration WHERE ${condition}
         ORDER BY key LIMIT :limit OFFSET :offset`,
    }),
    count: sqlStatement<ConfigurationListFilter, { total: number }>({
      name: `${name}:count`,
      parameters,
      sql: `SELECT count(*)::int AS total FROM assets.controller_configuration WHERE ${condition}`,
    }),
  };
}

/** The list's statements for each combination of its optional filters. */
const CONFIGURATION_LISTS = new Map<string, ConfigurationListStatements>(
  [false, true].flatMap((component) =>
    [false, true].map((keyPrefix): [string, ConfigurationListStatements] => [
      `${component}/${keyPrefix}`,
      configurationListStatements({ component, keyPrefix }),
    ]),
  ),
);

/** A controller's entries in key order, by page number, filtered as `filters` says. */
export function configurationList(filters: ConfigurationListFilters): ConfigurationListStatements {
  return CONFIGURATION_LISTS.get(`${filters.component}/${filters.keyPrefix}`)!;
}

/** For the SQL snapshots. */
export const CONTROLLER_CONFIGURATION_STATEMENTS = [
  lockReport,
  insertReportPart,
  deleteStaleReportParts,
  reportParts,
  reportRequestCommand,
  deleteReportParts,
  insertReportRequest,
  nameReportCommand,
  configurationValues,
  tenantController,
  writeConfigurationEntries,
  ...[...CONFIGURATION_LISTS.values()].flatMap(({ page, count }) => [page, count]),
];
