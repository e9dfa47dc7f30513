import { Injectable } from '@nestjs/common';
import {
  type CommandFilter,
  type CommandPage,
  type CommandView,
  type ListCommandsPayload,
  UUID_PATTERN,
} from '@cpc/contracts';
import { NotFoundError } from '@cpc/errors';
import { buildPagination, MAX_PAGE_SIZE, pageOffset } from '@cpc/pagination';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import {
  COMMAND_LIST_FILTERS,
  type CommandListFilter,
  type CommandListParameters,
  countCommandsOfTarget,
  getCommandView,
  listCommandViews,
} from '../../repositories/commands.repository.js';
import { countCommands } from '../command-counts.js';

/**
 * Reads commands for the API, always within the caller's tenant. Pages are ordered by created_at, ties by uuid in
 * the same direction, which is exactly the tail of every list index (see the migration), so pages never overlap.
 */
@Injectable()
export class CommandReader {
  constructor(private readonly dataSource: DataSource) {}

  async get(tenantUuid: string, uuid: string): Promise<CommandView> {
    if (typeof uuid !== 'string' || !UUID_PATTERN.test(uuid)) throw new NotFoundError('command');
    const [view] = await runStatement(this.dataSource, getCommandView, { tenantUuid, uuid });
    if (!view) throw new NotFoundError('command');
    return view;
  }

  async list(tenantUuid: string, request: ListCommandsPayload): Promise<CommandPage> {
    const page = Math.max(1, Math.trunc(request.page) || 1);
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(request.limit) || 1));
    const filter = request.filter ?? {};
    // The api-gateway validated the format; a target_uuid that is no UUID matches nothing.
    if (filter.target_uuid !== undefined && !UUID_PATTERN.test(filter.target_uuid)) {
      return { items: [], pagination: buildPagination({ page, limit }, 0) };
    }
    const filters = COMMAND_LIST_FILTERS.filter((field) => filter[field] !== undefined);
    const parameters: CommandListParameters = {
      tenantUuid,
      targetType: filter.target_type,
      targetUuid: filter.target_uuid?.toLowerCase(),
      type: filter.type,
      status: filter.status,
    };
    // Only created_at is sortable; the first entry decides (repeating the field cannot change the order).
    const direction = request.orderBy?.[0]?.direction === 'asc' ? 'ASC' : 'DESC';
    const statement = listCommandViews({
      filters,
      direction,
      limit,
      offset: pageOffset({ page, limit }),
      withResponse: request.include?.includes('response') === true,
    });
    const [items, total] = await Promise.all([
      runStatement(this.dataSource, statement, parameters),
      this.count(filter, filters, parameters),
    ]);
    return { items, pagination: buildPagination({ page, limit }, total) };
  }

  /**
   * A target's commands are counted in their index range; everything else comes from the per-tenant counts, so a
   * tenant with millions of commands is not counted row by row on every page (see the README, Commands).
   */
  private async count(
    filter: CommandFilter,
    filters: CommandListFilter[],
    parameters: CommandListParameters,
  ): Promise<number> {
    if (filter.target_uuid === undefined)
      return countCommands(this.dataSource, parameters.tenantUuid, filter);
    const [{ total }] = await runStatement(this.dataSource, countCommandsOfTarget(filters), parameters);
    return Number(total);
  }
}
