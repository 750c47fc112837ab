import type { Request } from 'express';
import type { World } from '../../world/world.js';
import { pagination, toSearchQuery, type ListingsParams } from './query.js';
import { runSearch } from './search.js';
import { searchIndex } from './search-index.js';
import { listingJson, listingView } from './view.js';

/** The validated query, with numbers as numbers whatever the validator handed over. */
export function queryParams(req: Request): ListingsParams {
  return listingsParams(req.query as Record<string, unknown>);
}

/** {@link queryParams} of a validated query object (also the fast search path's, http/fast-search.ts). */
export function listingsParams(raw: Record<string, unknown>): ListingsParams {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || key === 'api_key') continue;
    out[key] = ['minPrice', 'maxPrice', 'page', 'limit', 'lat', 'lng', 'radius'].includes(key)
      ? Number(value)
      : value;
  }
  return out as ListingsParams;
}

/** The page of listings a validated query asks for, and the pagination of the whole result. */
function searchOf(world: World, params: ListingsParams) {
  const query = toSearchQuery(world, params);
  const { items, total } = runSearch(searchIndex(world), query);
  return { items, lang: params.lang ?? 'en', pagination: pagination(query.page, query.limit, total) };
}

/**
 * One page of a listings search: the body of GET /api/shop/listings. Throws ApiError(400) for
 * the rules the schema cannot say (query.ts).
 */
export function searchPage(world: World, params: ListingsParams, base: string) {
  const { items, lang, pagination } = searchOf(world, params);
  return { listings: items.map((l) => listingView(l, lang, base)), pagination };
}

/**
 * {@link searchPage} as the JSON text `res.json` would send, joined from the kept listing texts
 * (view.ts `listingJson`); the fast search path's body.
 */
export function searchPageJson(world: World, params: ListingsParams, base: string): string {
  const { items, lang, pagination } = searchOf(world, params);
  const listings = items.map((l) => listingJson(world, l, lang, base)).join(',');
  return `{"listings":[${listings}],"pagination":${JSON.stringify(pagination)}}`;
}
