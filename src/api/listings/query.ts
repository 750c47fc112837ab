import type { Query } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
import { DEFAULT_LIMIT } from '../pagination.js';
import type { World } from '../../world/world.js';
import { categoryFamily } from '../categories/family.js';
import { canonicalCurrency } from '../wallet/currencies.js';
import type { SearchQuery } from './search.js';

/** The query of GET /api/shop/listings (searchListings) as validation leaves it. */
export type ListingsQuery = Query<'searchListings'>;

/**
 * Dollars as cents, float noise taken off: 1199029.89 × 100 is 119902988.99999999 in binary, which
 * a fixed 1e-9 tolerance does not reach at that size, so `minPrice=maxPrice=1199029.89` matched
 * nothing. Rounded to 1/10,000 of a cent (exact below the schema's 1e9 dollars).
 */
const centsOf = (dollars: number): number => Math.round(dollars * 1_000_000) / 10_000;

/**
 * Turns validated query parameters into a search, checking the rules the schema cannot say:
 * `lat`, `lng` and `radius` go together; `minPrice` ≤ `maxPrice`. An unknown category or
 * currency is not an error: it simply matches nothing.
 */
export function toSearchQuery(world: World, p: ListingsQuery): SearchQuery {
  const geoGiven = [p.lat, p.lng, p.radius].filter((v) => v !== undefined).length;
  if (geoGiven > 0 && geoGiven < 3) {
    throw new ApiError(400, 'query.lat, query.lng and query.radius must be given together (radius in km)');
  }
  if (p.minPrice !== undefined && p.maxPrice !== undefined && p.minPrice > p.maxPrice) {
    throw new ApiError(400, 'query.minPrice must not be greater than query.maxPrice');
  }
  const q = p.q?.trim();
  return {
    q: q ? q : undefined,
    lang: p.lang,
    type: p.type,
    categories: p.category === undefined ? undefined : categoryFamily(world.store.db.categories, p.category),
    minCents: p.minPrice === undefined ? undefined : Math.ceil(centsOf(p.minPrice)),
    maxCents: p.maxPrice === undefined ? undefined : Math.floor(centsOf(p.maxPrice)),
    currency:
      p.currency === undefined ? undefined : (canonicalCurrency(p.currency) ?? `unknown:${p.currency}`),
    geo:
      geoGiven === 3
        ? { lat: p.lat as number, lng: p.lng as number, radiusKm: p.radius as number }
        : undefined,
    sort: p.sort ?? 'newest',
    ranked: p.sort === undefined,
    page: p.page ?? 1,
    limit: p.limit ?? DEFAULT_LIMIT,
    now: world.clock.now(),
  };
}
