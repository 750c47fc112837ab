import type { Schema } from '../contract/types.js';

/** The page size when a request names none (every paged operation in openapi.yaml: default 12, at most 50). */
export const DEFAULT_LIMIT = 12;

/**
 * `page` and `limit` of a validated query, defaults filled in.
 * @example pageOf({ page: 2 }) // { page: 2, limit: 12 }
 */
export function pageOf(query: { page?: number; limit?: number }): { page: number; limit: number } {
  return { page: query.page ?? 1, limit: query.limit ?? DEFAULT_LIMIT };
}

/**
 * The contract's pagination object; an empty result has 0 pages.
 * @example pagination(1, 12, 25) // { page: 1, limit: 12, total: 25, totalPages: 3 }
 */
export function pagination(page: number, limit: number, total: number): Schema<'Pagination'> {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * One page of `all` with its pagination object.
 * @example paginate([1, 2, 3], 2, 2) // { items: [3], pagination: { page: 2, limit: 2, total: 3, totalPages: 2 } }
 */
export function paginate<T>(all: readonly T[], page: number, limit: number) {
  const start = (page - 1) * limit;
  return { items: all.slice(start, start + limit), pagination: pagination(page, limit, all.length) };
}
