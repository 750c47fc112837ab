import { ApiError } from '../http/errors.js';
import { journalView, type JournalRecord } from '../http/request-journal.js';
import { pathMatches } from '../scenarios/path-glob.js';
import type { JsonText, Query, Reply } from '../http/contract.js';

type JournalQuery = Query<'listRequests'>;

/**
 * Automaton steps one journal filter may take (path-glob.ts): only a pattern with a `*` between
 * two `**` takes them, at most 7 a character; about 40 ms of CPU time on the 2-core reference
 * machine. Every other pattern reads each path a few times by string search: linear, 1,000 paths
 * of 16 KB in some 50 ms at worst (docs/control-api.md).
 */
export const MAX_FILTER_STEPS = 4_000_000;

/**
 * JSON text one answer holds at most: serializing it (and redacting it) costs CPU time in
 * proportion, and a journal of 1,000 entries with 16 KB paths and 64 KB bodies is some 100 MB.
 */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

const idNumber = (id: string) => Number(id.slice(4));

/** `since` is a request id (entries after it) or an ISO 8601 date-time (entries at or after it). */
function sinceFilter(since: string): (e: JournalRecord) => boolean {
  const id = /^req_(\d+)$/.exec(since);
  if (id) return (e) => idNumber(e.id) > Number(id[1]);
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

function tooCostly(read: number, of: number): ApiError {
  return new ApiError(
    400,
    `query.path: this pattern has a * between two ** and needs more than ${MAX_FILTER_STEPS} automaton steps ` +
      `over this journal's paths (stopped after ${read} of ${of} entries): write it without ** around the *, ` +
      'or narrow the search with method, status, since or before',
  );
}

/** The journal's entries (newest first) that pass the filters, lazily: the path is matched last. */
function* matching(entries: JournalRecord[], q: JournalQuery): Generator<JournalRecord> {
  const tests: ((e: JournalRecord) => boolean)[] = [];
  if (q.method) tests.push((e) => e.method === q.method?.toUpperCase());
  if (q.status) tests.push(statusFilter(q.status));
  if (q.since) tests.push(sinceFilter(q.since));
  if (q.before) tests.push((e) => idNumber(e.id) < idNumber(q.before as string));
  const meter = { spent: 0 };
  for (let i = 0; i < entries.length; i += 1) {
    const e = entries[i];
    if (!tests.every((t) => t(e))) continue;
    if (q.path !== undefined) {
      const matched = pathMatches(q.path, e.path, meter);
      if (meter.spent > MAX_FILTER_STEPS) throw tooCostly(i + 1, entries.length);
      if (!matched) continue;
    }
    yield e;
  }
}

/**
 * The answer of `GET /__sandbox/requests`: the matching entries as served (redacted), at most
 * `limit` and at most {@link MAX_PAGE_BYTES} of JSON (always at least one entry); cut short by the
 * bytes, it names its last entry in `next_before`.
 */
export function journalPage(entries: JournalRecord[], q: JournalQuery): JsonText<Reply<'listRequests'>> {
  const limit = q.limit ?? 100;
  const parts: string[] = [];
  let bytes = 0;
  let last: string | undefined;
  let cut = false;
  for (const e of matching(entries, q)) {
    if (parts.length >= limit) break;
    const text = JSON.stringify(journalView(e));
    if (parts.length > 0 && bytes + text.length > MAX_PAGE_BYTES) {
      cut = true;
      break;
    }
    parts.push(text);
    bytes += text.length + 1;
    last = e.id;
  }
  const next = cut && last !== undefined ? `,"next_before":${JSON.stringify(last)}` : '';
  return `{"requests":[${parts.join(',')}]${next}}` as JsonText<Reply<'listRequests'>>;
}
