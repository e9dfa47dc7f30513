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
import { runStatement } from '@cpc/database';
import { buildPagination, MAX_PAGE_SIZE, pageOffset } from '@cpc/pagination';
import { DataSource, type EntityManager } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import { type ConfigurationEntry, fromReportData } from './configuration-entries.js';
import {
  configurationEntryRecord,
  configurationList,
  configurationValues,
  deleteReportParts,
  deleteStaleReportParts,
  insertReportPart,
  insertReportRequest,
  lockReport,
  nameReportCommand,
  reportParts,
  reportRequestCommand,
  tenantController,
  writeConfigurationEntries,
} from './controller-configuration.repository.js';

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
      const { controllerUuid, tenantUuid, reportedAt } = report;
      const { requestId } = part;
      await runStatement(manager, lockReport, { controllerUuid, requestId });
      await runStatement(manager, insertReportPart, {
        controllerUuid,
        requestId,
        seqNo: part.seqNo,
        tbc: part.tbc,
        reportData: JSON.stringify(part.reportData),
        receivedAt: reportedAt,
        tenantUuid,
      });
      await runStatement(manager, deleteStaleReportParts, {
        controllerUuid,
        requestId,
        reportedAt,
        ttlMs: this.tuning.incompleteReportTtlMs,
      });
      const parts = await runStatement(manager, reportParts, { controllerUuid, requestId });
      const complete =
        parts.length > 0 &&
        parts.every((stored, index) => stored.seq_no === index) &&
        !parts[parts.length - 1].tbc;
      if (!complete) return;
      const [request] = await runStatement(manager, reportRequestCommand, { controllerUuid, requestId });
      const entries = parts.flatMap((stored) => fromReportData(stored.report_data));
      await this.write(
        manager,
        { ...report, message: 'NotifyReport', commandUuid: request?.command_uuid ?? null, requestId },
        entries,
      );
      await runStatement(manager, deleteReportParts, { controllerUuid, requestId });
    });
  }

  /**
   * A command asked for a 2.0.1 report with `requestId` (GetBaseReport accepted): entries of that report name it as
   * their source, also those stored before this was known. Under the report's lock, as its parts are handled: the part
   * that completes the report and this, running at once, would each miss what the other has not committed yet, and
   * the report's entries would keep no command.
   */
  async rememberRequest(
    report: Pick<ConfigurationReport, 'tenantUuid' | 'controllerUuid' | 'reportedAt'>,
    requestId: number,
    commandUuid: string,
  ): Promise<void> {
    const { controllerUuid } = report;
    await this.dataSource.transaction(async (manager) => {
      await runStatement(manager, lockReport, { controllerUuid, requestId });
      await runStatement(manager, insertReportRequest, {
        controllerUuid,
        requestId,
        commandUuid,
        requestedAt: report.reportedAt,
        tenantUuid: report.tenantUuid,
      });
      await runStatement(manager, nameReportCommand, { controllerUuid, requestId });
    });
  }

  /** The setting limits the controller's stored configuration reports (see ControllerSettingLimits). */
  async settingLimits(tenantUuid: string, controllerUuid: string): Promise<ControllerSettingLimits> {
    const uuid = await this.controllerOf(tenantUuid, controllerUuid);
    const rows = await runStatement(this.dataSource, configurationValues, {
      controllerUuid: uuid,
      keys: Object.values(SETTING_LIMIT_KEYS),
    });
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
    const [controller] = await runStatement(this.dataSource, tenantController, {
      tenantUuid,
      controllerUuid: uuid,
    });
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
    const component = typeof filter.component === 'string' ? filter.component : undefined;
    const keyPrefix = typeof filter.key_prefix === 'string' ? filter.key_prefix : undefined;
    const statements = configurationList({
      component: component !== undefined,
      keyPrefix: keyPrefix !== undefined,
    });
    const listFilter = {
      tenantUuid,
      controllerUuid,
      component,
      keyPattern: keyPrefix === undefined ? undefined : likePrefix(keyPrefix),
    };
    const [items, [{ total }]] = await Promise.all([
      runStatement(this.dataSource, statements.page, {
        ...listFilter,
        limit,
        offset: pageOffset({ page, limit }),
      }),
      runStatement(this.dataSource, statements.count, listFilter),
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
    const unique = [
      ...new Map(entries.map((entry) => [entry.key, configurationEntryRecord(entry)])).values(),
    ];
    await runStatement(manager, writeConfigurationEntries, {
      controllerUuid: report.controllerUuid,
      tenantUuid: report.tenantUuid,
      entries: JSON.stringify(unique),
      sourceMessage: report.message,
      sourceCommandUuid: report.commandUuid,
      sourceRequestId: report.requestId ?? null,
      reportedAt: report.reportedAt,
    });
  }
}
