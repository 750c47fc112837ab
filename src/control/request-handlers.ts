import type { AppDeps } from '../app/deps.js';
import { ApiError } from '../contract/errors.js';
import { journalOf } from '../stages/journal.js';
import { journalPage } from './journal-query.js';
import type { AnyRequest, Handlers } from '../contract/handler.js';

export function requestHandlers(deps: AppDeps) {
  const journal = (req: AnyRequest) => journalOf(req.world, deps.config.journalSize);
  return {
    listRequests: (req, res) => {
      res.type('application/json').send(journalPage(journal(req).list(), req.query));
    },
    getRequest: (req, res) => {
      const entry = journal(req).get(req.params.id);
      if (!entry) throw new ApiError(404, `Request not found in the journal: ${req.params.id}`);
      res.json(entry);
    },
    clearRequests: (req, res) => {
      res.json({ success: true, removed: journal(req).clear() });
    },
  } satisfies Handlers;
}
