import type { World } from '../../world/world.js';
import { pagination } from '../pagination.js';
import { toSearchQuery, type ListingsQuery } from './query.js';
import { runSearch } from './search.js';
import { searchIndex } from './search-index.js';
import { listingJson, listingView, termsAt } from './view.js';

/** The page of listings a validated query asks for, and the pagination of the whole result. */
function searchOf(world: World, params: ListingsQuery) {
  const query = toSearchQuery(world, params);
  const { items, total } = runSearch(searchIndex(world, query.now), query);
  return {
    items,
    lang: params.lang ?? 'en',
    term: termsAt(world, query.now),
    pagination: pagination(query.page, query.limit, total),
  };
}

/**
 * One page of a listings search: the body of GET /api/shop/listings. Throws ApiError(400) for
 * the rules the schema cannot say (query.ts).
 */
export function searchPage(world: World, params: ListingsQuery, base: string) {
  const { items, lang, term, pagination } = searchOf(world, params);
  return { listings: items.map((l) => listingView(l, lang, base, term(l))), pagination };
}

/**
 * {@link searchPage} as the JSON text `res.json` would send, joined from the kept listing texts
 * (view.ts `listingJson`); the fast search path's body.
 */
export function searchPageJson(world: World, params: ListingsQuery, base: string): string {
  const { items, lang, term, pagination } = searchOf(world, params);
  const listings = items.map((l) => listingJson(world, l, lang, base, term(l))).join(',');
  return `{"listings":[${listings}],"pagination":${JSON.stringify(pagination)}}`;
}
