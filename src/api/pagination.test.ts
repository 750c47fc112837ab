import { describe, expect, it } from 'vitest';
import { pageOf, paginate, pagination } from './pagination.js';

describe('pagination', () => {
  it('counts pages, zero for an empty result', () => {
    expect(pagination(1, 12, 25)).toEqual({ page: 1, limit: 12, total: 25, totalPages: 3 });
    expect(pagination(3, 50, 0)).toEqual({ page: 3, limit: 50, total: 0, totalPages: 0 });
  });

  it('fills in the first page and the default size', () => {
    expect(pageOf({})).toEqual({ page: 1, limit: 12 });
    expect(pageOf({ page: 3, limit: 50 })).toEqual({ page: 3, limit: 50 });
  });

  it('cuts one page out of a list, past the end an empty one', () => {
    expect(paginate([1, 2, 3], 2, 2)).toEqual({
      items: [3],
      pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
    });
    expect(paginate([1, 2, 3], 5, 2).items).toEqual([]);
  });
});
