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

/** The spec's pagination object (same fields as `@cpc/pagination` Pagination). */
export interface AssetPagination {
  page: number;
  total_pages: number;
  page_size: number;
  has_more: boolean;
}

export interface AssetPage<TItem> {
  items: TItem[];
  pagination: AssetPagination;
}

/** errorKey of the validation error a delete answers when other assets still depend on the one to delete. */
export const HAS_DEPENDENTS_ERROR_KEY = 'has_dependents';
