import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import { appliedScenarios } from '../scenarios/query.js';
import { extra, type World } from '../world/world.js';
import type { Schema } from './contract.js';
import { redact, redactHeaders } from './redact.js';

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
export interface JournalRecord extends JournalFields {
  headers: Record<string, unknown>;
  requestBody: unknown;
  /** The body as sent (a fast answer keeps the cache's bytes, decoded only when read). */
  responseText: string | Buffer | undefined;
}

function bodyValue(sent: string | Buffer | undefined): unknown {
  if (sent === undefined || sent.length === 0) return null;
  const text = typeof sent === 'string' ? sent : sent.toString('utf8');
  try {
    return redact(JSON.parse(text));
  } catch {
    return text;
  }
}

/** The entry as served: secrets redacted. */
export function journalView(r: JournalRecord): JournalEntry {
  return {
    id: r.id,
    at: r.at,
    method: r.method,
    path: r.path,
    query: redact(r.query) as Record<string, unknown>,
    status: r.status,
    duration_ms: r.duration_ms,
    scenario: r.scenario,
    sandbox_id: r.sandbox_id,
    request_headers: redactHeaders(r.headers),
    request_body: r.requestBody === undefined ? null : redact(r.requestBody),
    response_body: bodyValue(r.responseText),
  };
}

/** A bounded ring buffer: the oldest entry goes when a new one arrives at capacity. */
export class Journal {
  private entries: JournalRecord[] = [];
  private next = 1;

  constructor(readonly capacity: number) {}

  nextId(): string {
    return `req_${this.next++}`;
  }

  add(entry: JournalRecord): void {
    if (this.capacity <= 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Newest first, unredacted: filter, then view only what is served. */
  list(): JournalRecord[] {
    return this.entries.slice().reverse();
  }

  get(id: string): JournalEntry | undefined {
    const found = this.entries.find((e) => e.id === id);
    return found && journalView(found);
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
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

/** Keeps a copy of what the response sends (res.json ends in res.send). */
function captureBody(res: Response): () => string | undefined {
  let captured: string | undefined;
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    if (captured === undefined) {
      const text = Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body);
      // Big bodies are not kept (memory): only a note of their size, in bytes as on the fast path.
      const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
      captured = bytes > MAX_BODY_BYTES ? `[${bytes} bytes, not kept]` : text.toString();
    }
    return send(body);
  }) as Response['send'];
  return () => captured;
}

function record(
  req: Request,
  res: Response,
  id: string,
  at: string,
  started: number,
  body: string | undefined,
): JournalRecord {
  const requestLength = Number(req.headers['content-length'] ?? 0);
  return {
    id,
    at,
    method: req.method,
    path: req.path,
    query: { ...((res.locals.journalQuery as Record<string, unknown> | undefined) ?? req.query) },
    status: res.headersSent ? res.statusCode : null,
    duration_ms: elapsedMs(started),
    scenario: appliedScenarios(req).join(', ') || null,
    sandbox_id: req.world.id,
    headers: { ...req.headers },
    requestBody: requestLength > MAX_BODY_BYTES ? `[${requestLength} bytes, not kept]` : req.body,
    responseText: body,
  };
}

/**
 * Records every request of a world once its response is over (or its connection dropped), with
 * the scenarios applied and the duration. Reads of the journal itself are not recorded.
 */
export function requestJournal(capacity: number): RequestHandler {
  return (req, res, next) => {
    if (capacity <= 0 || req.path.startsWith('/__sandbox/requests')) return next();
    const journal = journalOf(req.world, capacity);
    const id = journal.nextId();
    const at = req.world.clock.nowIso();
    const started = performance.now();
    const body = captureBody(res);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      journal.add(record(req, res, id, at, started, body()));
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}

/**
 * Records an answer of the fast read path (http/fast-read.ts): a GET without a body, answered 200
 * from the response cache, with no scenario applied; the same record the full path makes.
 */
export function journalFastRead(
  world: World,
  capacity: number,
  req: IncomingMessage,
  path: string,
  query: Record<string, unknown>,
  at: string,
  started: number,
  body: Buffer,
): void {
  if (capacity <= 0) return;
  const journal = journalOf(world, capacity);
  journal.add({
    id: journal.nextId(),
    at,
    method: 'GET',
    path,
    query: { ...query },
    status: 200,
    duration_ms: elapsedMs(started),
    scenario: null,
    sandbox_id: world.id,
    headers: { ...req.headers },
    requestBody: undefined,
    responseText: body.length > MAX_BODY_BYTES ? `[${body.length} bytes, not kept]` : body,
  });
}
