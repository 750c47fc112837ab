import { ApiError } from '../contract/errors.js';
import { journalView, type JournalRecord } from '../stages/journal.js';
import { checkPathPattern, pathMatches } from '../scenarios/path-pattern.js';
import { threadCpuMs } from '../process/thread-cpu.js';
import type { JsonText, Query, Reply } from '../contract/types.js';

type JournalQuery = Query<'listRequests'>;

/**
 * CPU time one journal read may spend matching paths (its thread's, `threadCpuMs`). Matching is
 * linear in each path (scenarios/path-pattern.ts), but a journal of 1,000 paths of 16 KB is 16 MB
 * of text, more than a few steps a character can read in one request's time. Past this, the read
 * is a 400 saying so, so no read holds the process up longer.
 */
export const MAX_FILTER_MS = 50;

/**
 * Entries matched between two looks at the CPU clock: a look reads a file, so not one per entry,
 * and a few entries of the longest paths take a read only a little past MAX_FILTER_MS
 * (docs/control-api.md has the figures).
 */
const CHECK_EVERY = 8;

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
    `query.path: matching this pattern took more than ${MAX_FILTER_MS} ms of CPU time over this journal's ` +
      `paths (stopped after ${read} of ${of} entries): narrow the search with method, status, since or ` +
      'before, or use a pattern with fewer characters after its wildcards',
  );
}

/**
 * The journal's entries (newest first) that pass the filters, at most `limit`; the path is matched
 * last, within {@link MAX_FILTER_MS} of CPU time (checked every {@link CHECK_EVERY} paths).
 */
function matching(entries: JournalRecord[], q: JournalQuery, limit: number): JournalRecord[] {
  const tests: ((e: JournalRecord) => boolean)[] = [];
  if (q.method) tests.push((e) => e.method === q.method?.toUpperCase());
  if (q.status) tests.push(statusFilter(q.status));
  if (q.since) tests.push(sinceFilter(q.since));
  if (q.before) tests.push((e) => idNumber(e.id) < idNumber(q.before as string));
  const started = threadCpuMs();
  const out: JournalRecord[] = [];
  let matched = 0;
  for (let i = 0; i < entries.length && out.length < limit; i += 1) {
    const e = entries[i];
    if (!tests.every((t) => t(e))) continue;
    if (q.path !== undefined) {
      if (++matched % CHECK_EVERY === 0 && threadCpuMs() - started > MAX_FILTER_MS)
        throw tooCostly(i, entries.length);
      if (!pathMatches(q.path, e.path)) continue;
    }
    out.push(e);
  }
  return out;
}

/**
 * The answer of `GET /__sandbox/requests`: the matching entries as served (redacted), at most
 * `limit` and at most {@link MAX_PAGE_BYTES} of JSON (always at least one entry); cut short by the
 * bytes, it names its last entry in `next_before`.
 */
export function journalPage(entries: JournalRecord[], q: JournalQuery): JsonText<Reply<'listRequests'>> {
  checkPathPattern(q.path, 'query.path');
  const parts: string[] = [];
  let bytes = 0;
  let last: string | undefined;
  let cut = false;
  for (const e of matching(entries, q, q.limit ?? 100)) {
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
