import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import { ApiError, Messages } from '../../contract/errors.js';
import type { Handlers } from '../../contract/handler.js';
import { createListing } from './create.js';
import { afterLeniency } from '../../contract/leniency.js';
import { baseUrl } from '../base-url.js';
import { langOf } from '../../contract/lang.js';
import { searchPage } from './search-page.js';
import { catalogIndexesReady } from '../../search/catalog-text.js';
import { listingView, termsAt } from './view.js';
import { forcesProvider, settleByScenario } from '../payprovider/provider-scenarios.js';

export function listingHandlers(_deps: AppDeps) {
  return {
    searchListings: async (req, res) => {
      // A search reads every language's text index: the first builds them, one per task.
      if (req.query.q !== undefined) await catalogIndexesReady();
      res.json(searchPage(req.world, req.query, baseUrl(req)));
    },
    getListing: (req, res) => {
      const listing = req.world.store.db.listings[req.params.id];
      if (!listing)
        throw new ApiError(404, Messages.listingNotFound, {}, `No listing has the id ${req.params.id}`);
      const term = termsAt(req.world, req.world.clock.now())(listing);
      res.json(listingView(listing, langOf(req.query), baseUrl(req), term));
    },
    createListing: async (req, res) => {
      const owner = userId(req);
      const body = afterLeniency(req.body);
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
      const view = listingView(listing, 'en', baseUrl(req), termsAt(req.world, now)(listing));
      res.status(201).json({
        ...view,
        ...(featured.approvalUrl !== undefined ? { approvalUrl: featured.approvalUrl } : {}),
        ...(featured.deducted !== undefined ? { deducted: featured.deducted } : {}),
      });
    },
  } satisfies Handlers;
}
