import { Injectable } from '@nestjs/common';
import type { CommandFilter, CommandPage, CommandView, ListCommandsPayload } from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { buildPagination, MAX_PAGE_SIZE, pageOffset } from '@cpc/pagination';
import { DataSource } from 'typeorm';
import { countCommands } from '../command-counts.js';
import { COMMAND_ROW_COLUMNS, type CommandRow, toCommandView } from '../command-record.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTER_COLUMNS: Record<keyof CommandFilter, string> = {
  target_type: 'target_type',
  target_uuid: 'target_uuid',
  type: 'type',
  status: 'status',
};

/**
 * Reads commands for the API, always within the caller's tenant. Pages are ordered by created_at, ties by uuid in
 * the same direction, which is exactly the tail of every list index (see the migration), so pages never overlap.
 */
@Injectable()
export class CommandReader {
  constructor(private readonly dataSource: DataSource) {}

  async get(tenantUuid: string, uuid: string): Promise<CommandView> {
    if (typeof uuid !== 'string' || !UUID_PATTERN.test(uuid)) throw new NotFoundError('command');
    const [row] = await this.dataSource.query<CommandRow[]>(
      `SELECT ${COMMAND_ROW_COLUMNS} FROM control.commands WHERE tenant_uuid = $1 AND uuid = $2`,
      [tenantUuid, uuid],
    );
    if (!row) throw new NotFoundError('command');
    return toCommandView(row);
  }

  async list(tenantUuid: string, request: ListCommandsPayload): Promise<CommandPage> {
    const page = Math.max(1, Math.trunc(request.page) || 1);
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(request.limit) || 1));
    const conditions = ['tenant_uuid = $1'];
    const values: unknown[] = [tenantUuid];
    for (const [field, column] of Object.entries(FILTER_COLUMNS) as [keyof CommandFilter, string][]) {
      const value = request.filter?.[field];
      if (value === undefined) continue;
      // The api-gateway validated the format; a target_uuid that is no UUID matches nothing.
      if (field === 'target_uuid' && !UUID_PATTERN.test(value)) {
        return { items: [], pagination: buildPagination({ page, limit }, 0) };
      }
      values.push(field === 'target_uuid' ? value.toLowerCase() : value);
      conditions.push(`${column} = $${values.length}`);
    }
    // Only created_at is sortable; the first entry decides (repeating the field cannot change the order).
    const direction = request.orderBy?.[0]?.direction === 'asc' ? 'ASC' : 'DESC';
    const where = conditions.join(' AND ');
    const [rows, total] = await Promise.all([
      this.dataSource.query<CommandRow[]>(
        `SELECT ${COMMAND_ROW_COLUMNS} FROM control.commands WHERE ${where}
          ORDER BY created_at ${direction}, uuid ${direction}
          LIMIT ${limit} OFFSET ${pageOffset({ page, limit })}`,
        values,
      ),
      this.count(tenantUuid, request.filter ?? {}, where, values),
    ]);
    return { items: rows.map(toCommandView), pagination: buildPagination({ page, limit }, total) };
  }

  /**
   * A target's commands are counted in their index range; everything else comes from the per-tenant counts, so a
   * tenant with millions of commands is not counted row by row on every page (see the README, Commands).
   */
  private async count(
    tenantUuid: string,
    filter: CommandFilter,
    where: string,
    values: unknown[],
  ): Promise<number> {
    if (filter.target_uuid === undefined) return countCommands(this.dataSource, tenantUuid, filter);
    const [{ total }] = await this.dataSource.query<{ total: string }[]>(
      `SELECT count(*) AS total FROM control.commands WHERE ${where}`,
      values,
    );
    return Number(total);
  }
}
