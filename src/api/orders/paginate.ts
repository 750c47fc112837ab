import type { Request } from 'express';

export const DEFAULT_PAGE_SIZE = 12;

/** `page` and `limit` from an already-validated query (interface §8: default 12, maximum 50). */
export function pageQuery(req: Request): { page: number; limit: number } {
  const page = Number(req.query.page ?? 1);
  const limit = Number(req.query.limit ?? DEFAULT_PAGE_SIZE);
  return { page, limit };
}

/**
 * One page of `all` with the interface's pagination object.
 * @example paginate([1, 2, 3], 2, 2) // { items: [3], pagination: { page: 2, limit: 2, total: 3, totalPages: 2 } }
 */
export function paginate<T>(all: T[], page: number, limit: number) {
  const start = (page - 1) * limit;
  return {
    items: all.slice(start, start + limit),
    pagination: { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) },
  };
}

/** The sandbox's own origin, for absolute URLs (approvalUrl). */
export function baseUrlOf(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}
