import type { AppDeps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Handlers } from '../handlers.js';
import { langOf, queryParams } from '../listings/handlers.js';
import { pagination, DEFAULT_LIMIT } from '../listings/query.js';
import { runSearch } from '../listings/search.js';
import { searchIndex } from '../listings/search-index.js';
import { baseUrl, listingView } from '../listings/view.js';
import { listCategories, subcategoriesOf } from './categories.js';
import { localeFile } from './locales.js';

export function catalogHandlers(_deps: AppDeps): Handlers {
  return {
    listCategories: (req, res) => {
      res.json({ categories: listCategories(req.world, langOf(req)) });
    },
    listSubcategories: (req, res) => {
      res.json(subcategoriesOf(req.world, req.params.parent_slug as string, langOf(req)));
    },
    getStore: (req, res) => {
      const store = req.world.store.db.stores[req.params.slug as string];
      if (!store) throw new ApiError(404, `Store not found: ${req.params.slug as string}`);
      const { page = 1, limit = DEFAULT_LIMIT } = queryParams(req);
      const { items, total } = runSearch(searchIndex(req.world), {
        storeSlug: store.slug,
        sort: 'newest',
        featuredFirst: false,
        page,
        limit,
        now: req.world.clock.now(),
      });
      const lang = langOf(req);
      const base = baseUrl(req);
      res.json({
        store: { store_name: store.store_name, slug: store.slug, description: store.description },
        listings: items.map((l) => listingView(l, lang, base)),
        pagination: pagination(page, limit, total),
      });
    },
    getLocale: (req, res) => {
      const code = String(req.params.lang);
      const file = localeFile(code);
      if (!file) throw new ApiError(404, `No locale file for language ${JSON.stringify(code.slice(0, 20))}`);
      res.set({ ETag: file.etag, 'Cache-Control': 'public, max-age=3600' });
      if (req.headers['if-none-match'] === file.etag) {
        res.status(304).end();
        return;
      }
      res.type('application/json').send(file.body);
    },
  };
}
