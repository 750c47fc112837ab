import type { JsonText, Reply } from '../../contract/types.js';
import type { World } from '../../world/world.js';
import { pagination } from '../pagination.js';
import { toSearchQuery, type ListingsQuery } from './query.js';
import { runSearch } from './search.js';
import { searchIndex } from './search-index.js';
import { listingJson } from './view.js';

/** The page of listings a validated query asks for, and the pagination of the whole result. */
function searchOf(world: World, params: ListingsQuery) {
  const query = toSearchQuery(world, params);
  const { items, terms, total } = runSearch(searchIndex(world, query.now), query);
  return {
    items,
    terms,
    lang: params.lang ?? 'en',
    pagination: pagination(query.page, query.limit, total),
  };
}

/**
 * One page of a listings search, the body of GET /api/shop/listings, as JSON text joined from the
 * kept listing texts (view.ts `listingJson`). Throws ApiError(400) for the rules the schema cannot
 * say (query.ts).
 */
export function searchPageJson(
  world: World,
  params: ListingsQuery,
  base: string,
): JsonText<Reply<'searchListings'>> {
  const { items, terms, lang, pagination } = searchOf(world, params);
  const listings = items.map((l, k) => listingJson(world, l, lang, base, terms[k])).join(',');
  return `{"listings":[${listings}],"pagination":${JSON.stringify(pagination)}}` as JsonText<
    Reply<'searchListings'>
  >;
}
