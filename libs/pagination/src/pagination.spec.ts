import { buildPagination, pageOffset } from './pagination.js';

describe('buildPagination', () => {
  it('reports page 1 of 1 with no more pages when nothing matched', () => {
    expect(buildPagination({ page: 1, limit: 20 }, 0)).toEqual({
      page: 1,
      total_pages: 1,
      page_size: 20,
      has_more: false,
    });
  });

  it('counts partial last pages and says whether more follow', () => {
    expect(buildPagination({ page: 1, limit: 50 }, 101)).toEqual({
      page: 1,
      total_pages: 3,
      page_size: 50,
      has_more: true,
    });
    expect(buildPagination({ page: 3, limit: 50 }, 101)).toEqual({
      page: 3,
      total_pages: 3,
      page_size: 50,
      has_more: false,
    });
  });

  it('keeps the requested page number beyond the last page, with no more pages', () => {
    expect(buildPagination({ page: 9, limit: 10 }, 15)).toEqual({
      page: 9,
      total_pages: 2,
      page_size: 10,
      has_more: false,
    });
  });

  it('computes offsets from 1-based pages', () => {
    expect(pageOffset({ page: 3, limit: 20 })).toBe(40);
  });
});
