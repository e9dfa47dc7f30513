import type { AdminPage, ListAssetsPayload } from '@cpc/contracts';
import { buildPagination, pageOffset } from '@cpc/pagination';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Escapes LIKE wildcards so that a filter value matches literally, anywhere in the text. */
export const containing = (value: string) => `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * One page of an admin list, in the order asked for (newest first by default; the uuid breaks ties, so pages never
 * overlap), with the spec's pagination object.
 */
export async function adminListPage<TEntity extends ObjectLiteral, TField extends string, TView>(
  query: SelectQueryBuilder<TEntity>,
  request: ListAssetsPayload<unknown, TField>,
  columns: Record<TField, string>,
  toViews: (rows: TEntity[]) => Promise<TView[]>,
): Promise<AdminPage<TView>> {
  const order = request.orderBy?.length
    ? request.orderBy
    : [{ field: 'created_at' as TField, direction: 'desc' }];
  for (const { field, direction } of order) {
    query.addOrderBy(columns[field], direction === 'asc' ? 'ASC' : 'DESC');
  }
  const [rows, total] = await query
    .addOrderBy(`${query.alias}.uuid`, 'ASC')
    .skip(pageOffset(request))
    .take(request.limit)
    .getManyAndCount();
  return { items: await toViews(rows), pagination: buildPagination(request, total) };
}
