import type { AppDeps } from '../app/deps.js';
import { ApiError } from '../http/errors.js';
import { journalOf, journalView, type JournalRecord } from '../http/request-journal.js';
import { pathMatches } from '../scenarios/path-glob.js';
import type { Query } from '../http/contract.js';
import type { AnyRequest, Handlers } from '../http/handler.js';

type JournalQuery = Query<'listRequests'>;

/** `since` is a request id (entries after it) or an ISO date-time (entries at or after it). */
function sinceFilter(since: string): (e: JournalRecord) => boolean {
  const id = /^req_(\d+)$/.exec(since);
  if (id) return (e) => Number(e.id.slice(4)) > Number(id[1]);
  const ms = Date.parse(since);
  if (Number.isNaN(ms))
    throw new ApiError(400, 'query.since must be a request id (req_12) or an ISO 8601 date-time');
  return (e) => Date.parse(e.at) >= ms;
}

function statusFilter(status: string): (e: JournalRecord) => boolean {
  if (/^[1-5]xx$/i.test(status))
    return (e) => e.status !== null && Math.floor(e.status / 100) === Number(status[0]);
  return (e) => e.status === Number(status);
}

/** Journal filters, each optional; newest first, at most `limit` (default 100). */
export function filterJournal(entries: JournalRecord[], q: JournalQuery): JournalRecord[] {
  const tests: ((e: JournalRecord) => boolean)[] = [];
  if (q.method) tests.push((e) => e.method === q.method?.toUpperCase());
  if (q.path) tests.push((e) => pathMatches(q.path as string, e.path));
  if (q.status) tests.push(statusFilter(q.status));
  if (q.since) tests.push(sinceFilter(q.since));
  return entries.filter((e) => tests.every((t) => t(e))).slice(0, q.limit ?? 100);
}

export function requestHandlers(deps: AppDeps) {
  const journal = (req: AnyRequest) => journalOf(req.world, deps.config.journalSize);
  return {
    listRequests: (req, res) => {
      res.json({ requests: filterJournal(journal(req).list(), req.query).map(journalView) });
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
