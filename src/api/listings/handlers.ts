import type { Request } from 'express';
import type { AppDeps } from '../../deps.js';
import type { World } from '../../world.js';
import { userId } from '../../http/auth.js';
import { ApiError, Messages } from '../../http/errors.js';
import type { Handlers } from '../handlers.js';
import { createListing, type CreateListingBody } from './create.js';
import { pagination, toSearchQuery, type ListingsParams } from './query.js';
import { runSearch } from './search.js';
import { searchIndex } from './search-index.js';
import { baseUrl, listingJson, listingView } from './view.js';
import { forcesProvider } from '../checkout/scenario-hook.js';
import { settleByScenario } from '../payprovider/scenario-outcome.js';

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

export const langOf = (req: Request): string => (typeof req.query.lang === 'string' ? req.query.lang : 'en');

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

export function listingHandlers(_deps: AppDeps): Handlers {
  return {
    searchListings: (req, res) => {
      res.json(searchPage(req.world, queryParams(req), baseUrl(req)));
    },
    getListing: (req, res) => {
      const listing = req.world.store.db.listings[req.params.id as string];
      if (!listing) throw new ApiError(404, Messages.listingNotFound);
      res.json(listingView(listing, langOf(req), baseUrl(req)));
    },
    createListing: async (req, res) => {
      const owner = userId(req);
      const body = req.body as CreateListingBody;
      const now = req.world.clock.now();
      const { listing, featured } = await createListing(req.world, owner, body, {
        baseUrl: baseUrl(req),
        // Asked only where it can change the outcome, so a sticky switch is counted only then.
        forceProvider:
          body.is_featured === true &&
          body.featured_payment_method === 'credit_wallet' &&
          forcesProvider(req),
        settle: (db, outcome) => settleByScenario(req, db, outcome, now),
      });
      const view = listingView(listing, 'en', baseUrl(req));
      res.status(201).json({
        ...view,
        ...(featured.approvalUrl !== undefined ? { approvalUrl: featured.approvalUrl } : {}),
        ...(featured.deducted !== undefined ? { deducted: featured.deducted } : {}),
      });
    },
  };
}
