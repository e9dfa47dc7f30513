import type {
  AssetPage,
  AssetSort,
  AssetSortField,
  CursorAssetPage,
  CursorListPayload,
  ListAssetsPayload,
} from '@cpc/contracts';
import { type VisibilityHorizon, visibilityHorizon } from '@cpc/database';
import {
  buildPagination,
  cursorPage,
  cursorScope,
  LOWEST_KEY_VALUE,
  keysetCondition,
  pageAtHorizon,
  pageCursorLinks,
  pageOffset,
  readCursorParameter,
  type SortKeyColumn,
  sortKeyKinds,
  sortKeySelect,
} from '@cpc/pagination';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ASSET_LIST_HORIZONS, type ListedAssetTable } from './asset-inserts.repository.js';

/** Escapes LIKE wildcards so a filter value matches literally. */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A sortable field of a list: its column (database name) and what a cursor keeps of it. */
export interface SortField {
  column: string;
  type: SortKeyColumn['type'];
  /** The column can be NULL (sorted as PostgreSQL does by default: last ascending, first descending). */
  nullable?: boolean;
  /** The row's insert stamp (insertAsset): sorted by it first, a list's pages end at its visibility horizon. */
  insertStamp?: boolean;
}

/** The sortable fields of most asset lists (ASSET_SORT_FIELDS). */
export const ASSET_SORT_COLUMNS: Record<AssetSortField, SortField> = {
  created_at: { column: 'created_at', type: 'timestamptz', insertStamp: true },
  name: { column: 'name', type: 'text' },
};

/**
 * A list that also offers the cursor style: its name in its cursors' scope (the NATS subject), the tenant, and the
 * table its rows are inserted into (marked, so the list's visibility horizon sees those inserts in flight).
 */
export interface CursorListing {
  list: string;
  tenantUuid: string;
  table: ListedAssetTable;
}

type ListRequest<TField extends string> = Pick<
  ListAssetsPayload<unknown, TField>,
  'page' | 'limit' | 'orderBy'
> &
  CursorListPayload & { filter?: unknown };

/**
 * The sort of a list: the caller's order (each field once), newest first when none, then uuid ascending so equal keys
 * never shuffle between pages and every row has a unique key.
 */
export function listSort<TField extends string>(
  alias: string,
  orderBy: readonly AssetSort<TField>[],
  sortFields: Record<TField, SortField>,
): { sort: AssetSort<TField>[]; columns: SortKeyColumn[] } {
  const asked: readonly AssetSort<TField>[] =
    orderBy.length > 0 ? orderBy : [{ field: 'created_at' as TField, direction: 'desc' }];
  const seen = new Set<string>();
  const sort = asked.filter((entry) => !seen.has(entry.field) && seen.add(entry.field));
  const qualified = (column: string) => `"${alias}"."${column}"`;
  const columns: SortKeyColumn[] = sort.map(({ field, direction }) => ({
    column: qualified(sortFields[field].column),
    type: sortFields[field].type,
    nullable: sortFields[field].nullable,
    order: direction === 'asc' ? 'ASC' : 'DESC',
  }));
  columns.push({ column: qualified('uuid'), type: 'uuid', order: 'ASC' });
  return { sort, columns };
}

/**
 * Sorts (listSort), pages and maps a tenant-scoped query's rows to views. A numbered page is read with OFFSET and
 * counted; for a list given `cursors` it also carries `pagination.cursor`, and a request with `cursor` is read by
 * keyset instead: the rows after (or before) the cursor's key in the list's order, no OFFSET, no count. The cursor's
 * scope is the list, the tenant, the filter and the order, so a cursor of anything else is a 422 on `cursor`.
 */
export function listPage<TEntity extends ObjectLiteral, TField extends string, TView>(
  query: SelectQueryBuilder<TEntity>,
  request: ListRequest<TField>,
  sortFields: Record<TField, SortField>,
  toViews: (rows: TEntity[]) => Promise<TView[]> | TView[],
): Promise<AssetPage<TView>>;
export function listPage<TEntity extends ObjectLiteral, TField extends string, TView>(
  query: SelectQueryBuilder<TEntity>,
  request: ListRequest<TField>,
  sortFields: Record<TField, SortField>,
  toViews: (rows: TEntity[]) => Promise<TView[]> | TView[],
  cursors: CursorListing,
): Promise<CursorAssetPage<TView>>;
export async function listPage<TEntity extends ObjectLiteral, TField extends string, TView>(
  query: SelectQueryBuilder<TEntity>,
  request: ListRequest<TField>,
  sortFields: Record<TField, SortField>,
  toViews: (rows: TEntity[]) => Promise<TView[]> | TView[],
  cursors?: CursorListing,
): Promise<CursorAssetPage<TView>> {
  const { sort, columns } = listSort(query.alias, request.orderBy, sortFields);
  const order = sort.map(({ field, direction }) => `${direction === 'asc' ? '+' : '-'}${field}`);
  const scope = cursors && cursorScope(cursors.list, cursors.tenantUuid, { filter: request.filter, order });
  if (scope !== undefined)
    columns.forEach((column, index) => query.addSelect(sortKeySelect(column), `cursor_key_${index}`));
  type Row = { entity: TEntity; raw: Record<string, string | null> };
  const keyOf = (raw: Record<string, string | null>) =>
    columns.map((_column, index) => raw[`cursor_key_${index}`]);
  const read = async (): Promise<Row[]> => {
    const { raw, entities } = await query.getRawAndEntities<Record<string, string | null>>();
    const rawByUuid = new Map(raw.map((row) => [row[`${query.alias}_uuid`], row]));
    return entities.map((entity) => ({ entity, raw: rawByUuid.get(entity.uuid as string) ?? {} }));
  };
  // Sorted by the insert stamp first, a page read towards newer rows ends at the visibility horizon, so its cursors
  // never pass a row still being committed (see ASSET_LIST_HORIZONS); by any other field rows created during a walk
  // land anywhere in the order anyway.
  const horizonStatement =
    cursors !== undefined && sortFields[sort[0].field].insertStamp === true
      ? ASSET_LIST_HORIZONS[cursors.table]
      : undefined;
  const timeOf = (row: Row) => row.raw.cursor_key_0 as string;

  if (scope !== undefined && request.cursor !== undefined) {
    const cursor = readCursorParameter(scope, request.cursor, sortKeyKinds(columns));
    if (cursor === undefined) throw new Error('unreachable: a cursor was sent');
    const { orderBy, predicate, parameters } = keysetCondition(columns, cursor.direction, cursor.key);
    query.andWhere(predicate, parameters);
    orderBy.forEach((entry, index) =>
      index === 0 ? query.orderBy(entry.column, entry.order) : query.addOrderBy(entry.column, entry.order),
    );
    query.limit(request.limit + 1);
    // Read towards older rows, the page stays below the horizon of the page its cursor came from.
    const horizon =
      horizonStatement && orderBy[0].order === 'ASC'
        ? await visibilityHorizon(query.connection, horizonStatement)
        : undefined;
    const fetched = await read();
    const { rows, pagination } = cursorPage(fetched, {
      scope,
      limit: request.limit,
      cursor,
      // The statement already reads in the cursor's direction; cursorPage only turns a backwards page round.
      read: { order: 'ASC', reversed: cursor.direction === 'before' },
      keyOf: (row) => keyOf(row.raw),
      horizon: horizon && { at: horizon.at, timeOf },
    });
    return { items: await toViews(rows.map((row) => row.entity)), pagination };
  }

  const counted = query.clone();
  const heldBackQuery = query.clone();
  columns.forEach((column, index) =>
    index === 0 ? query.orderBy(column.column, column.order) : query.addOrderBy(column.column, column.order),
  );
  query.offset(pageOffset(request)).limit(request.limit);
  if (scope === undefined || horizonStatement === undefined) {
    const [rows, count] = await Promise.all([read(), counted.getCount()]);
    const numbered = buildPagination(request, count);
    const pagination =
      scope === undefined ? numbered : pageCursorLinks(rows, numbered, scope, (row) => keyOf(row.raw));
    return { items: await toViews(rows.map((row) => row.entity)), pagination };
  }
  // A numbered page hands out cursors, so it ends at the horizon too: oldest first its rows beyond it are cut off
  // (an extra row read says whether any follow), newest first its statement starts its range below it.
  const stamp = columns[0].column;
  const ascending = columns[0].order === 'ASC';
  const readPage = (horizon: VisibilityHorizon) =>
    pageAtHorizon(horizon, {
      ascending,
      limit: request.limit,
      oldest: columns.map((column) => LOWEST_KEY_VALUE[column.type]),
      timeOf,
      read: () => {
        if (ascending) query.limit(request.limit + 1);
        else query.andWhere(`${stamp} < :visibilityHorizon::timestamptz`, { visibilityHorizon: horizon.at });
        return read();
      },
      heldAbove: () =>
        heldBackQuery
          .andWhere(`${stamp} >= :visibilityHorizon::timestamptz`, { visibilityHorizon: horizon.at })
          .getExists(),
    });
  const [{ rows, heldBack }, count] = await Promise.all([
    visibilityHorizon(query.connection, horizonStatement).then(readPage),
    counted.getCount(),
  ]);
  const pagination = pageCursorLinks(
    rows,
    buildPagination(request, count),
    scope,
    (row) => keyOf(row.raw),
    heldBack,
  );
  return { items: await toViews(rows.map((row) => row.entity)), pagination };
}
