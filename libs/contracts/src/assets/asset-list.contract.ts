/** Payloads shared by every asset kind. */

export interface AssetUuidPayload {
  uuid: string;
}

export interface UpdateAssetPayload<TChanges> {
  uuid: string;
  /** Only the fields the caller sent; a field set to null is cleared. */
  changes: TChanges;
}

export type SortDirection = 'asc' | 'desc';

export interface AssetSort<TField extends string> {
  field: TField;
  direction: SortDirection;
}

/** Sortable fields of every asset list; plugs add `connector_id`. */
export const ASSET_SORT_FIELDS = ['created_at', 'name'] as const;
export type AssetSortField = (typeof ASSET_SORT_FIELDS)[number];

export interface ListAssetsPayload<TFilter, TSortField extends string = AssetSortField> {
  page: number;
  limit: number;
  /** In priority order; the service adds `uuid` as the last tie-breaker so pages never overlap. */
  orderBy: AssetSort<TSortField>[];
  filter: TFilter;
}

/** `pagination.cursor` (the spec's cursor style): opaque cursors of the previous and next page, absent when none. */
export interface CursorLinks {
  next?: string;
  prev?: string;
}

/**
 * The spec's pagination object (same fields as `@cpc/pagination` Pagination); lists that offer cursors add `cursor`,
 * so a client can go on from a numbered page by cursor.
 */
export interface AssetPagination {
  page: number;
  total_pages: number;
  page_size: number;
  has_more: boolean;
  cursor?: CursorLinks;
}

/** The pagination object of a page read by cursor: no page numbers (they would need a count of every row). */
export interface CursorPagination {
  page_size: number;
  has_more: boolean;
  cursor: CursorLinks;
}

/** The pagination of a list that offers both styles: numbered pages, or cursors (`cursor` in the request). */
export type ListPagination = AssetPagination | CursorPagination;

/** Lists that grow without bound take `cursor` besides page and limit (page is then ignored: the gateway refuses both). */
export interface CursorListPayload {
  /** An opaque cursor from `pagination.cursor` of an earlier page of the same list. */
  cursor?: string;
}

export interface AssetPage<TItem> {
  items: TItem[];
  pagination: AssetPagination;
}

/** A page of a list that offers both styles (numbered, or by cursor with `cursor` in the request). */
export interface CursorAssetPage<TItem> {
  items: TItem[];
  pagination: ListPagination;
}

/** The request of an asset list that offers the cursor style too. */
export type CursorListAssetsPayload<TFilter, TSortField extends string = AssetSortField> = ListAssetsPayload<
  TFilter,
  TSortField
> &
  CursorListPayload;

/** errorKey of the validation error a delete answers when other assets still depend on the one to delete. */
export const HAS_DEPENDENTS_ERROR_KEY = 'has_dependents';
