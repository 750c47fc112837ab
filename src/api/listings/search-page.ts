import type { DeepReadonly } from '../../contract/handler.js';
import type { Reply } from '../../contract/types.js';
import type { World } from '../../world/world.js';
import { pagination } from '../pagination.js';
import { toSearchQuery, type ListingsQuery } from './query.js';
import { runSearch } from './search.js';
import { listingTable } from '../../search/listing-table.js';
import { listingView } from './view.js';

/**
 * One page of a listings search, the body of GET /api/shop/listings, and the pagination of the
 * whole result. Throws ApiError(400) for the rules the schema cannot say (query.ts).
 */
export function searchPage(
  world: World,
  params: ListingsQuery,
  base: string,
): DeepReadonly<Reply<'searchListings'>> {
  const query = toSearchQuery(world, params);
  const { items, terms, total } = runSearch(listingTable(world), query);
  const lang = params.lang ?? 'en';
  return {
    listings: items.map((l, k) => listingView(l, lang, base, terms[k])),
    pagination: pagination(query.page, query.limit, total),
  };
}
