import type { ListingsQuery } from '../api/listings/query.js';
import { searchPageJson } from '../api/listings/search-page.js';
import { JSON_TYPE } from './answer.js';
import { baseUrl } from './base-url.js';
import { strictQuery } from './fast-query.js';
import type { CacheEntry } from './response-cache.js';
import type { RequestContext } from './request-context.js';

const SEARCH_PATH = '/api/shop/listings';

/**
 * The validation stage and the handler of `GET /api/shop/listings` for the fast read path, on a
 * cache miss: the query is checked by {@link strictQuery} (only queries the request validator
 * certainly accepts, giving the query object it would hand over), and the page is the handler's
 * own (`searchPageJson`, which the `searchListings` handler sends too). An uncached search then
 * costs the search and the JSON, not Express's middleware, routing and validation. Returns
 * undefined, having changed nothing, for anything else: another path, a query the check leaves
 * to the validator, a rule of the search itself (lat/lng/radius together, minPrice ≤ maxPrice).
 */
export function fastSearch(): (ctx: RequestContext) => Omit<CacheEntry, 'at'> | undefined {
  const check = strictQuery('searchListings');
  return (ctx) => {
    if (ctx.path !== SEARCH_PATH) return undefined;
    const url = ctx.req.url ?? '';
    const q = url.indexOf('?');
    const query = check(q < 0 ? '' : url.slice(q + 1));
    if (!query) return undefined;
    let page: string;
    try {
      page = searchPageJson(
        ctx.world,
        query as ListingsQuery,
        baseUrl({ protocol: ctx.protocol, headers: ctx.req.headers, socket: ctx.req.socket }),
      );
    } catch {
      // An ApiError of the search's own rules, or any failure: the full path answers it (its 400,
      // or the 500 it logs).
      return undefined;
    }
    return { status: 200, headers: { 'Content-Type': JSON_TYPE }, bytes: Buffer.from(page), query };
  };
}
