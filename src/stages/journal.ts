import { performance } from 'node:perf_hooks';
import querystring from 'node:querystring';
import type { Request, RequestHandler, Response } from 'express';
import { extra, type World } from '../world/world.js';
import type { Schema } from '../contract/types.js';
import { headerSecretValues, redact, redactHeaders, scrubberOf, scrubDeep, secretValues } from './redact.js';
import { appliedScenarios } from '../scenarios/query.js';
import { errorDetailOf, warningsOf } from '../contract/warnings.js';

/** One recorded request as served (openapi.yaml `JournalEntry`, secrets redacted). */
export type JournalEntry = Schema<'JournalEntry'>;

/** What the stored record and the served entry share (`status` null: the connection dropped first). */
type JournalFields = Omit<JournalEntry, 'request_headers' | 'request_body' | 'response_body'>;

/** Bodies larger than this (bytes) are kept as a note, not as data: the journal must stay small. */
const MAX_BODY_BYTES = 64 * 1024;

/** Milliseconds since `started` (performance.now), to two decimals. */
const elapsedMs = (started: number) => Math.round((performance.now() - started) * 100) / 100;

/**
 * What is kept per request: references and raw text, redacted only when read, so recording costs
 * next to nothing on the request path (load tests run with the journal on).
 */
export interface JournalRecord extends Omit<JournalFields, 'query'> {
  /** The query string as sent (after `?`), parsed only when read. */
  search: string;
  headers: Record<string, unknown>;
  requestBody: unknown;
  /** The body as sent (an answer from the cache keeps its bytes, decoded only when read). */
  responseText: string | Buffer | undefined;
}

/** The body as sent: parsed when JSON (not yet redacted), else its text; null when none. */
function bodyValue(sent: string | Buffer | undefined): unknown {
  if (sent === undefined || sent.length === 0) return null;
  const text = typeof sent === 'string' ? sent : sent.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The query as the client sent it, parsed as Express parses it (node:querystring: `+` is a space,
 * a repeated name a list), before any stage changed it: what the sandbox did with it (a `limit`
 * answered with 50, an unknown parameter ignored) is in the entry's `warnings`.
 */
export function queryOf(search: string): Record<string, unknown> {
  return { ...querystring.parse(search) };
}

/** The query string of a request URL, without the `?`. */
function searchOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/**
 * The entry as served: every value under a secret name redacted, and every other place where
 * such a value appears too (a reset token in a mail's text, a key in a path or an error detail).
 */
export function journalView(r: JournalRecord): JournalEntry {
  const response = bodyValue(r.responseText);
  const query = queryOf(r.search);
  const secrets = new Set<string>();
  secretValues(query, secrets);
  secretValues(r.requestBody, secrets);
  secretValues(response, secrets);
  headerSecretValues(r.headers, secrets);
  const entry: JournalEntry = {
    id: r.id,
    at: r.at,
    method: r.method,
    path: r.path,
    query: redact(query) as Record<string, unknown>,
    status: r.status,
    duration_ms: r.duration_ms,
    scenario: r.scenario,
    sandbox_id: r.sandbox_id,
    warnings: r.warnings,
    error_detail: r.error_detail,
    request_headers: redactHeaders(r.headers),
    request_body: r.requestBody === undefined ? null : redact(r.requestBody),
    response_body: redact(response),
  };
  const scrub = scrubberOf(secrets);
  if (!scrub) return entry;
  return {
    ...entry,
    path: scrub(entry.path),
    query: scrubDeep(entry.query, scrub) as JournalEntry['query'],
    warnings: entry.warnings.map(scrub),
    error_detail: entry.error_detail === null ? null : scrub(entry.error_detail),
    request_headers: scrubDeep(entry.request_headers, scrub) as JournalEntry['request_headers'],
    request_body: scrubDeep(entry.request_body, scrub),
    response_body: scrubDeep(entry.response_body, scrub),
  };
}

/**
 * A bounded ring buffer: the oldest entry goes when a new one arrives at capacity. Adding writes
 * one slot (no array shifting), since every request of a world adds an entry.
 */
export class Journal {
  private slots: (JournalRecord | undefined)[] = [];
  /** The slot the next entry goes to, once the buffer is full. */
  private head = 0;
  private next = 1;

  constructor(readonly capacity: number) {}

  nextId(): string {
    return `req_${this.next++}`;
  }

  add(entry: JournalRecord): void {
    if (this.capacity <= 0) return;
    if (this.slots.length < this.capacity) {
      this.slots.push(entry);
      return;
    }
    this.slots[this.head] = entry;
    this.head = (this.head + 1) % this.capacity;
  }

  /** Oldest first. */
  private ordered(): JournalRecord[] {
    const all = this.slots.slice(this.head).concat(this.slots.slice(0, this.head));
    return all.filter((e): e is JournalRecord => e !== undefined);
  }

  /** Newest first, unredacted: filter, then view only what is served. */
  list(): JournalRecord[] {
    return this.ordered().reverse();
  }

  get(id: string): JournalEntry | undefined {
    const found = this.slots.find((e) => e?.id === id);
    return found && journalView(found);
  }

  clear(): number {
    const n = this.slots.length;
    this.slots = [];
    this.head = 0;
    return n;
  }
}

export function journalOf(world: World, capacity: number): Journal {
  return extra(world, 'journal', () => {
    const journal = new Journal(capacity);
    world.onReset(() => journal.clear());
    return journal;
  });
}

/** A body kept for the journal: itself, or a note of its size in bytes when over 64 KB. */
function kept(body: string | Buffer | undefined): string | Buffer | undefined {
  if (body === undefined) return undefined;
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return bytes > MAX_BODY_BYTES ? `[${bytes} bytes, not kept]` : body;
}

/** What the journal stage keeps of one request while it is served. */
interface Served {
  id: string;
  /** Sandbox time when the request arrived. */
  at: string;
  /** performance.now() then, for the duration. */
  started: number;
  /** The response body as sent. */
  sent: string | Buffer | undefined;
}

/** Records the request with what it was answered (secrets are redacted when the journal is read). */
function record(journal: Journal, req: Request, res: Response, served: Served): void {
  const requestLength = Number(req.headers['content-length'] ?? 0);
  journal.add({
    id: served.id,
    at: served.at,
    method: req.method,
    path: req.path,
    search: searchOf(req.originalUrl),
    // Null when the connection was dropped before a response.
    status: res.headersSent ? res.statusCode : null,
    duration_ms: elapsedMs(served.started),
    scenario: appliedScenarios(req).join(', ') || null,
    sandbox_id: req.world.id,
    warnings: warningsOf(res),
    error_detail: errorDetailOf(res),
    headers: { ...req.headers },
    requestBody: requestLength > MAX_BODY_BYTES ? `[${requestLength} bytes, not kept]` : req.body,
    responseText: kept(served.sent),
  });
}

/** Keeps what the response sends (res.json ends in res.send), for the journal. */
function captureBody(served: Served, res: Response): void {
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    // A HEAD is answered without its body (Express and Node drop it): the journal keeps none.
    if (served.sent === undefined && res.req.method !== 'HEAD') {
      const text = Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body);
      // Big bodies are not kept (memory): only a note of their size, in bytes.
      served.sent = kept(text);
    }
    return send(body);
  }) as Response['send'];
}

/** Each response's "record it now", set by the journal stage. */
const recorders = new WeakMap<Response, () => void>();

/**
 * Records the request of `res` in the journal now, once: a connection the sandbox cuts itself
 * (a scenario) is recorded before it is cut, so a client that reads the journal right after
 * seeing the cut finds it there.
 */
export function recordNow(res: Response): void {
  recorders.get(res)?.();
}

/**
 * The journal stage: records every request of a world once its response is over (or its
 * connection dropped), with the scenarios applied. Reads of the journal itself are not recorded,
 * nor a request whose world is a stand-in (world.ts): nothing of it is recorded there.
 */
export function requestJournal(capacity: number): RequestHandler {
  return (req, res, next) => {
    if (capacity <= 0 || req.path.startsWith('/__sandbox/requests') || req.standIn) return next();
    const journal = journalOf(req.world, capacity);
    const served: Served = {
      id: journal.nextId(),
      at: req.world.clock.nowIso(),
      started: performance.now(),
      sent: undefined,
    };
    captureBody(served, res);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      record(journal, req, res, served);
    };
    recorders.set(res, finish);
    // 'close' comes after 'finish', and also when the connection drops before a response.
    res.once('close', finish);
    next();
  };
}
