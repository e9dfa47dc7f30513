import type { AssetPage, AssetSort, ListAssetsPayload } from '@cpc/contracts';
import { buildPagination, pageOffset } from '@cpc/pagination';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Escapes LIKE wildcards so a filter value matches literally. */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Sorts (the caller's order, then uuid so equal keys never shuffle between pages), pages and counts a tenant-scoped
 * query, and maps the page's rows to views. The default order is newest first.
 */
export async function listPage<TEntity extends ObjectLiteral, TField extends string, TView>(
  query: SelectQueryBuilder<TEntity>,
  request: Pick<ListAssetsPayload<unknown, TField>, 'page' | 'limit' | 'orderBy'>,
  sortColumns: Record<TField, string>,
  toViews: (rows: TEntity[]) => Promise<TView[]> | TView[],
): Promise<AssetPage<TView>> {
  const orderBy: AssetSort<TField>[] =
    request.orderBy.length > 0 ? request.orderBy : [{ field: 'created_at' as TField, direction: 'desc' }];
  const seen = new Set<string>();
  orderBy.forEach((sort, index) => {
    if (seen.has(sort.field)) return;
    seen.add(sort.field);
    const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
    if (index === 0) query.orderBy(sortColumns[sort.field], direction);
    else query.addOrderBy(sortColumns[sort.field], direction);
  });
  query.addOrderBy(`${query.alias}.uuid`, 'ASC');
  query.offset(pageOffset(request)).limit(request.limit);
  const [rows, total] = await query.getManyAndCount();
  return { items: await toViews(rows), pagination: buildPagination(request, total) };
}
