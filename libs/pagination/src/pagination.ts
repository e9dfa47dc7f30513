/** The spec's pagination object, returned with every list. */
export interface Pagination {
  page: number;
  total_pages: number;
  page_size: number;
  has_more: boolean;
}

export interface PageRequest {
  page: number;
  limit: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

/**
 * `page_size` is the limit asked for (the spec: "number of items returned per page"), so it stays the same on every
 * page, the last one and an empty result included; `total_pages` is at least 1 so page 1 always exists.
 */
export function buildPagination(request: PageRequest, totalItems: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(totalItems / request.limit));
  return {
    page: request.page,
    total_pages: totalPages,
    page_size: request.limit,
    has_more: request.page < totalPages,
  };
}

export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.limit;
}
