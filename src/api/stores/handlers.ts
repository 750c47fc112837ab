import type { AppDeps } from '../../app/deps.js';
import { ApiError } from '../../contract/errors.js';
import type { Handlers } from '../../contract/handler.js';
import { baseUrl } from '../base-url.js';
import { langOf } from '../../contract/lang.js';
import { pageOf, pagination } from '../pagination.js';
import { runSearch } from '../listings/search.js';
import { listingTable } from '../../search/listing-table.js';
import { listingView } from '../listings/view.js';

export function storeHandlers(_deps: AppDeps) {
  return {
    getStore: (req, res) => {
      const store = req.world.store.db.stores[req.params.slug];
      if (!store) throw new ApiError(404, `Store not found: ${req.params.slug}`);
      const { page, limit } = pageOf(req.query);
      const now = req.world.clock.now();
      const { items, terms, total } = runSearch(listingTable(req.world), {
        storeSlug: store.slug,
        sort: 'newest',
        featuredFirst: false,
        page,
        limit,
        now,
      });
      const lang = langOf(req.query);
      const base = baseUrl(req);
      res.json({
        store: { store_name: store.store_name, slug: store.slug, description: store.description },
        listings: items.map((l, k) => listingView(l, lang, base, terms[k])),
        pagination: pagination(page, limit, total),
      });
    },
  } satisfies Handlers;
}
