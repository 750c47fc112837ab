import type { AppDeps } from '../../app/deps.js';
import type { Handlers } from '../../contract/handler.js';
import { langOf } from '../../contract/lang.js';
import { listCategories, subcategoriesOf } from './categories.js';

export function categoryHandlers(_deps: AppDeps) {
  return {
    listCategories: (req, res) => {
      res.json({ categories: listCategories(req.world, langOf(req.query)) });
    },
    listSubcategories: (req, res) => {
      res.json(subcategoriesOf(req.world, req.params.parent_slug, langOf(req.query)));
    },
  } satisfies Handlers;
}
