import type { AppDeps } from '../../app/deps.js';
import type { Handlers } from '../../http/handler.js';
import { baseUrl, listingView } from '../listings/view.js';
import { answer, type AssistantTurn } from './assistant.js';

export function assistantHandlers(_deps: AppDeps): Handlers {
  return {
    askAssistant: (req, res) => {
      const body = req.body as { message: string; history?: AssistantTurn[] };
      const result = answer(req.world, body.message, body.history ?? []);
      const base = baseUrl(req);
      res.set('Content-Language', result.lang).json({
        reply: result.reply,
        listings: result.listings.map((l) => listingView(l, result.lang, base)),
      });
    },
  };
}
