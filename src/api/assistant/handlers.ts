import type { AppDeps } from '../../app/deps.js';
import type { Handlers } from '../../http/handler.js';
import { baseUrl } from '../../http/base-url.js';
import { listingView } from '../listings/view.js';
import { answer, wordListsFor } from './assistant.js';

export function assistantHandlers(_deps: AppDeps) {
  return {
    askAssistant: async (req, res) => {
      const { message, history = [] } = req.body;
      await wordListsFor(message);
      const result = answer(req.world, message, history);
      const base = baseUrl(req);
      res.set('Content-Language', result.lang);
      res.json({
        reply: result.reply,
        listings: result.listings.map((l) => listingView(l, result.lang, base)),
      });
    },
  } satisfies Handlers;
}
