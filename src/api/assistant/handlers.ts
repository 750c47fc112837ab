import type { AppDeps } from '../../app/deps.js';
import type { Handlers } from '../../contract/handler.js';
import { baseUrl } from '../base-url.js';
import { listingView, termsAt } from '../listings/view.js';
import { catalogIndexesReady } from '../../search/catalog-text.js';
import { answer } from './assistant.js';

export function assistantHandlers(_deps: AppDeps) {
  return {
    askAssistant: async (req, res) => {
      const { message, history = [] } = req.body;
      // The answer reads every language's text index: the first question builds them, one per task.
      await catalogIndexesReady();
      const now = req.world.clock.now();
      const result = answer(req.world, message, history, now);
      const term = termsAt(req.world, now);
      const base = baseUrl(req);
      res.set('Content-Language', result.lang);
      res.json({
        reply: result.reply,
        listings: result.listings.map((l) => listingView(l, result.lang, base, term(l))),
      });
    },
  } satisfies Handlers;
}
