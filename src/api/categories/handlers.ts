import type { AppDeps } from '../../app/deps.js';
import type { Handlers } from '../../http/handler.js';
import { langOf } from '../../http/lang.js';
import { listCategories, subcategoriesOf } from './categories.js';

export function categoryHandlers(_deps: AppDeps): Handlers {
  return {
    listCategories: (req, res) => {
      res.json({ categories: listCategories(req.world, langOf(req)) });
    },
    listSubcategories: (req, res) => {
      res.json(subcategoriesOf(req.world, req.params.parent_slug as string, langOf(req)));
    },
  };
}
