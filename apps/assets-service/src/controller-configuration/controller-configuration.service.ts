import { Inject, Injectable } from '@nestjs/common';
import type {
  AssetPage,
  ControllerConfigurationEntryView,
  ControllerSettingLimits,
  ConfigurationSourceMessage,
  ListControllerConfigurationPayload,
} from '@cpc/contracts';
import { SETTING_LIMIT_KEYS, UUID_PATTERN } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { buildPagination, MAX_PAGE_SIZE, pageOffset } from '@cpc/pagination';
import { DataSource, type EntityManager } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { type ConfigurationEntry, fromReportData } from './configuration-entries.js';

/** Who reported entries: the controller (with its tenant), the message, the command it answered, and when. */
export interface ConfigurationReport {
  tenantUuid: string;
  controllerUuid: string;
  message: ConfigurationSourceMessage;
  commandUuid: string | null;
  /** 2.0.1 NotifyReport: the report's requestId (ties the entries to the command that asked, see rememberRequest). */
  requestId?: number | null;
  reportedAt: Date;
}

/** One part of a 2.0.1 NotifyReport as the gateway published it. */
export interface ReportPart {
  requestId: number;
  seqNo: number;
  tbc: boolean;
  reportData: unknown[];
}

/** An entry with `undefined` (keep what is stored) spelled out for SQL. */
function entryRecord(entry: ConfigurationEntry) {
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

const VIEW_COLUMNS = `key, component, component_instance, evse_id, connector_id, variable, variable_instance,
  attribute_type, value, mutability, characteristics, status, source_message, source_command_uuid,
  to_char(reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS reported_at`;

/** Escapes LIKE wildcards so a prefix matches literally. */
const likePrefix = (value: string) => `${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The configuration charge points report, per controller: the latest value of every key and variable attribute with
 * what reported it. Entries of a message are written in one transaction; a message older than what an entry already
 * reflects leaves it alone, and what a message says nothing about (the value of a refused GetVariables, the
 * mutability of a GetVariables answer) keeps its stored value. Entries of a deleted controller are dropped.
 */
@Injectable()
export class ControllerConfigurationService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  /** Stores what one message reported. */
  async store(report: ConfigurationReport, entries: ConfigurationEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.dataSource.transaction((manager) => this.write(manager, report, entries));
  }

  /**
   * Holds one NotifyReport part; when the report is complete (parts 0..n present, the last without tbc) its entries
   * are stored in seqNo order in the same transaction and the parts removed. Parts of the controller's other reports
   * older than incompleteReportTtlMs are removed on the way. Parts of one report are handled one at
   * a time (a lock per controller and request), so the part that completes it is always seen.
   */
  async addReportPart(
    report: Omit<ConfigurationReport, 'message' | 'commandUuid'>,
    part: ReportPart,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1::text), $2)`, [
        report.controllerUuid,
        part.requestId,
      ]);
      await manager.query(
        `INSERT INTO assets.controller_report_parts (controller_uuid, request_id, seq_no, tbc, report_data, received_at)
         SELECT $1, $2, $3, $4, $5::jsonb, $6
          WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = $1 AND tenant_uuid = $7)
         ON CONFLICT DO NOTHING`,
        [
          report.controllerUuid,
          part.requestId,
          part.seqNo,
          part.tbc,
          JSON.stringify(part.reportData),
          report.reportedAt,
          report.tenantUuid,
        ],
      );
      // Parts of the controller's other reports that never completed, after their time.
      await manager.query(
        `DELETE FROM assets.controller_report_parts
          WHERE controller_uuid = $1 AND request_id <> $2 AND received_at < $3::timestamptz - $4 * interval '1 millisecond'`,
        [report.controllerUuid, part.requestId, report.reportedAt, this.tuning.incompleteReportTtlMs],
      );
      const parts = await manager.query<{ seq_no: number; tbc: boolean; report_data: unknown[] }[]>(
        `SELECT seq_no, tbc, report_data FROM assets.controller_report_parts
          WHERE controller_uuid = $1 AND request_id = $2 ORDER BY seq_no`,
        [report.controllerUuid, part.requestId],
      );
      const complete =
        parts.length > 0 &&
        parts.every((stored, index) => stored.seq_no === index) &&
        !parts[parts.length - 1].tbc;
      if (!complete) return;
      const [request] = await manager.query<{ command_uuid: string }[]>(
        `SELECT command_uuid FROM assets.controller_report_requests WHERE controller_uuid = $1 AND request_id = $2`,
        [report.controllerUuid, part.requestId],
      );
      const entries = parts.flatMap((stored) => fromReportData(stored.report_data));
      await this.write(
        manager,
        {
          ...report,
          message: 'NotifyReport',
          commandUuid: request?.command_uuid ?? null,
          requestId: part.requestId,
        },
        entries,
      );
      await manager.query(
        `DELETE FROM assets.controller_report_parts WHERE controller_uuid = $1 AND request_id = $2`,
        [report.controllerUuid, part.requestId],
      );
    });
  }

  /**
   * A command asked for a 2.0.1 report with `requestId` (GetBaseReport accepted): entries of that report name it as
   * their source, also those stored before this was known.
   */
  async rememberRequest(
    report: Pick<ConfigurationReport, 'tenantUuid' | 'controllerUuid' | 'reportedAt'>,
    requestId: number,
    commandUuid: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO assets.controller_report_requests (controller_uuid, request_id, command_uuid, requested_at)
         SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = $1 AND tenant_uuid = $5)
         ON CONFLICT DO NOTHING`,
        [report.controllerUuid, requestId, commandUuid, report.reportedAt, report.tenantUuid],
      );
      await manager.query(
        `UPDATE assets.controller_configuration SET source_command_uuid = $3
          WHERE controller_uuid = $1 AND source_message = 'NotifyReport' AND source_request_id = $2
            AND source_command_uuid IS NULL`,
        [report.controllerUuid, requestId, commandUuid],
      );
    });
  }

  /** The setting limits the controller's stored configuration reports (see ControllerSettingLimits). */
  async settingLimits(tenantUuid: string, controllerUuid: string): Promise<ControllerSettingLimits> {
    const uuid = await this.controllerOf(tenantUuid, controllerUuid);
    const rows = await this.dataSource.query<{ key: string; value: string | null }[]>(
      `SELECT key, value FROM assets.controller_configuration WHERE controller_uuid = $1 AND key = ANY($2::text[])`,
      [uuid, Object.values(SETTING_LIMIT_KEYS)],
    );
    const limitOf = (key: string) => {
      const value = rows.find((row) => row.key === key)?.value;
      return value !== undefined && value !== null && /^\d{1,9}$/.test(value.trim()) && Number(value) > 0
        ? Number(value)
        : null;
    };
    return Object.fromEntries(
      Object.entries(SETTING_LIMIT_KEYS).map(([limit, key]) => [limit, limitOf(key)]),
    ) as unknown as ControllerSettingLimits;
  }

  /** The controller's uuid (lower-case) when the tenant has it; not_found otherwise. */
  private async controllerOf(tenantUuid: string, controllerUuid: unknown): Promise<string> {
    const uuid = typeof controllerUuid === 'string' ? controllerUuid.toLowerCase() : '';
    if (!UUID_PATTERN.test(uuid)) throw new NotFoundError('controller');
    const [controller] = await this.dataSource.query<{ uuid: string }[]>(
      `SELECT uuid FROM assets.controllers WHERE tenant_uuid = $1 AND uuid = $2`,
      [tenantUuid, uuid],
    );
    if (!controller) throw new NotFoundError('controller');
    return uuid;
  }

  async list(
    tenantUuid: string,
    request: ListControllerConfigurationPayload,
  ): Promise<AssetPage<ControllerConfigurationEntryView>> {
    const controllerUuid = await this.controllerOf(tenantUuid, request.controllerUuid);
    const page = Math.max(1, Math.trunc(request.page) || 1);
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(request.limit) || 1));
    const filter = request.filter ?? {};
    const where = ['tenant_uuid = $1', 'controller_uuid = $2'];
    const parameters: unknown[] = [tenantUuid, controllerUuid];
    if (typeof filter.component === 'string') {
      parameters.push(filter.component);
      where.push(`component = $${parameters.length}`);
    }
    if (typeof filter.key_prefix === 'string') {
      parameters.push(likePrefix(filter.key_prefix));
      where.push(`key LIKE $${parameters.length}`);
    }
    const condition = where.join(' AND ');
    const [items, [{ total }]] = await Promise.all([
      this.dataSource.query<ControllerConfigurationEntryView[]>(
        `SELECT ${VIEW_COLUMNS} FROM assets.controller_configuration WHERE ${condition}
          ORDER BY key LIMIT ${limit} OFFSET ${pageOffset({ page, limit })}`,
        parameters,
      ),
      this.dataSource.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM assets.controller_configuration WHERE ${condition}`,
        parameters,
      ),
    ]);
    return { items, pagination: buildPagination({ page, limit }, total) };
  }

  /**
   * Inserts new entries and updates stored ones that are not newer than the report. A key twice in one message: the
   * last one counts.
   */
  private async write(
    manager: EntityManager,
    report: ConfigurationReport,
    entries: ConfigurationEntry[],
  ): Promise<void> {
    const unique = [...new Map(entries.map((entry) => [entry.key, entryRecord(entry)])).values()];
    await manager.query(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($3::jsonb) AS e(${ENTRY_RECORD_COLUMNS})
          WHERE EXISTS (SELECT FROM assets.controllers WHERE uuid = $1 AND tenant_uuid = $2)
       ), updated AS (
         UPDATE assets.controller_configuration c
            SET value = CASE WHEN i.has_value THEN i.value ELSE c.value END,
                mutability = CASE WHEN i.has_mutability THEN i.mutability ELSE c.mutability END,
                characteristics = CASE WHEN i.has_characteristics THEN i.characteristics ELSE c.characteristics END,
                status = i.status, source_message = $4, source_command_uuid = $5, source_request_id = $6,
                reported_at = $7
           FROM input i
          WHERE c.controller_uuid = $1 AND c.key = i.key COLLATE "C" AND c.reported_at <= $7
         RETURNING c.key
       )
       INSERT INTO assets.controller_configuration AS c (controller_uuid, key, tenant_uuid, component,
                   component_instance, evse_id, connector_id, variable, variable_instance, attribute_type, value,
                   mutability, characteristics, status, source_message, source_command_uuid, source_request_id,
                   reported_at)
       SELECT $1, i.key, $2, i.component, i.component_instance, i.evse_id, i.connector_id, i.variable,
              i.variable_instance, i.attribute_type, i.value, i.mutability, i.characteristics, i.status, $4, $5, $6, $7
         FROM input i
        WHERE i.key NOT IN (SELECT key FROM updated)
       ON CONFLICT (controller_uuid, key) DO NOTHING`,
      [
        report.controllerUuid,
        report.tenantUuid,
        JSON.stringify(unique),
        report.message,
        report.commandUuid,
        report.requestId ?? null,
        report.reportedAt,
      ],
    );
  }
}
