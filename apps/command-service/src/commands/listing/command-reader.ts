import { Inject, Injectable } from '@nestjs/common';
import {
  type CommandFilter,
  type CommandPage,
  CommandSubjects,
  type CommandView,
  type ListCommandsPayload,
  UUID_PATTERN,
} from '@cpc/contracts';
import { BoundedWork } from '@cpc/bounded-work';
import { NotFoundError, ServiceUnavailableError } from '@cpc/errors';
import {
  buildPagination,
  type CursorKeyKind,
  cursorPage,
  cursorScope,
  keysetParameters,
  keysetRead,
  MAX_PAGE_SIZE,
  LOWEST_KEY_VALUE,
  pageAtHorizon,
  pageCursorLinks,
  pageOffset,
  readCursorParameter,
} from '@cpc/pagination';
import { runStatement, visibilityHorizon } from '@cpc/database';
import { DataSource } from 'typeorm';
import {
  COMMAND_LIST_FILTERS,
  COMMAND_LIST_KEY,
  type CommandListFilter,
  type CommandListParameters,
  commandsHeldBack,
  commandsVisibilityHorizon,
  countCommandsOfTarget,
  getCommandView,
  listCommandViews,
  type ListedCommandRow,
} from '../../repositories/commands.repository.js';
import { countCommands } from '../command-counts.js';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';

const COMMAND_CURSOR_KINDS: readonly CursorKeyKind[] = ['timestamp', 'uuid'];
/** A key before every command: where an empty first page's cursor starts when all its rows are held back. */
const OLDEST_KEY = [LOWEST_KEY_VALUE.timestamptz, LOWEST_KEY_VALUE.uuid];

/** The view of a listed row: without its exact sort time, which only the cursors carry. */
function toView({ cursor_at: _sortTime, ...view }: ListedCommandRow): CommandView {
  return view;
}

/**
 * Reads commands for the API, always within the caller's tenant. Pages are ordered by created_at, ties by uuid in
 * the same direction, which is exactly the tail of every list index (see the migration), so pages never overlap.
 */
@Injectable()
export class CommandReader {
  /** List reads hold connections of the pool the creations use: a share of it at most, and a bounded queue. */
  private readonly listReads: BoundedWork;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(COMMAND_SERVICE_CONFIG) config: CommandServiceConfig,
  ) {
    this.listReads = new BoundedWork(
      config.tuning.listReadsAtOnce,
      config.tuning.listReadsWaitingAtMost,
      () => new ServiceUnavailableError('too many command lists are being read, try again later'),
    );
  }

  async get(tenantUuid: string, uuid: string): Promise<CommandView> {
    if (typeof uuid !== 'string' || !UUID_PATTERN.test(uuid)) throw new NotFoundError('command');
    const [view] = await runStatement(this.dataSource, getCommandView, { tenantUuid, uuid });
    if (!view) throw new NotFoundError('command');
    return view;
  }

  /**
   * A numbered page (with a count for total_pages), or with `cursor` a page read by keyset from the cursor's key (no
   * count, no OFFSET: any page costs what the first does). Numbered pages carry cursors too, to go on from them.
   */
  async list(tenantUuid: string, request: ListCommandsPayload): Promise<CommandPage> {
    const page = Math.max(1, Math.trunc(request.page) || 1);
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(request.limit) || 1));
    const filter = request.filter ?? {};
    // Only created_at is sortable; the first entry decides (repeating the field cannot change the order).
    const direction = request.orderBy?.[0]?.direction === 'asc' ? 'ASC' : 'DESC';
    const scope = cursorScope(CommandSubjects.list, tenantUuid, { filter, direction });
    const cursor = readCursorParameter(scope, request.cursor, COMMAND_CURSOR_KINDS);
    const keyOf = (row: ListedCommandRow) => [row.cursor_at, row.command_uuid];
    // The api-gateway validated the format; a target_uuid that is no UUID matches nothing.
    if (filter.target_uuid !== undefined && !UUID_PATTERN.test(filter.target_uuid)) {
      const none = buildPagination({ page, limit }, 0);
      return {
        items: [],
        pagination: request.cursor === undefined ? none : { page_size: limit, has_more: false, cursor: {} },
      };
    }
    const filters = COMMAND_LIST_FILTERS.filter((field) => filter[field] !== undefined);
    const parameters: CommandListParameters = {
      tenantUuid,
      targetType: filter.target_type,
      targetUuid: filter.target_uuid?.toLowerCase(),
      type: filter.type,
      status: filter.status,
    };
    const withResponse = request.include?.includes('response') === true;
    const timeOf = (row: ListedCommandRow) => row.cursor_at;
    if (request.cursor !== undefined) {
      const read = keysetRead(direction, cursor);
      const statement = listCommandViews({
        filters,
        direction: read.order,
        limit: limit + 1,
        keyset: read.comparison,
        withResponse,
      });
      const { horizon, fetched } = await this.listReads.run(async () => {
        // Read towards older rows, the page stays below the horizon of the page its cursor came from, where every
        // row is readable already: only a read towards newer rows needs one of its own.
        const seen =
          read.order === 'ASC'
            ? await visibilityHorizon(this.dataSource, commandsVisibilityHorizon)
            : undefined;
        const keyed = { ...parameters, ...keysetParameters(COMMAND_LIST_KEY, cursor) };
        return { horizon: seen, fetched: await runStatement(this.dataSource, statement, keyed) };
      });
      const { rows, pagination } = cursorPage(fetched, {
        scope,
        limit,
        cursor,
        read,
        keyOf,
        horizon: horizon && { at: horizon.at, timeOf },
      });
      return { items: rows.map(toView), pagination };
    }
    // A numbered page hands out cursors, so it ends at the horizon too: oldest first its rows beyond it are cut off
    // (an extra row read says whether any follow), newest first the statement starts its range below it.
    const ascending = direction === 'ASC';
    const statement = listCommandViews({
      filters,
      direction,
      limit: ascending ? limit + 1 : limit,
      offset: pageOffset({ page, limit }),
      withResponse,
      beforeHorizon: !ascending,
    });
    const [{ rows, heldBack }, total] = await this.listReads.run(() =>
      Promise.all([
        visibilityHorizon(this.dataSource, commandsVisibilityHorizon).then((seen) => {
          const bounded = { ...parameters, horizon: seen.at };
          return pageAtHorizon(seen, {
            ascending,
            limit,
            oldest: OLDEST_KEY,
            timeOf,
            read: () => runStatement(this.dataSource, statement, ascending ? parameters : bounded),
            heldAbove: async () =>
              (await runStatement(this.dataSource, commandsHeldBack(filters), bounded))[0].held_back,
          });
        }),
        this.count(filter, filters, parameters),
      ]),
    );
    const pagination = pageCursorLinks(rows, buildPagination({ page, limit }, total), scope, keyOf, heldBack);
    return { items: rows.map(toView), pagination };
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
