import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import { appliedScenarios } from '../scenarios/query.js';
import { extra, type World } from '../world.js';
import { redact, redactHeaders } from './redact.js';

/** One recorded request (secrets redacted). */
export interface JournalEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** Null when the connection was dropped before a response (network.reset, a client abort). */
  status: number | null;
  duration_ms: number;
  /** Scenarios applied, as in X-Sandbox-Scenario-Applied; null when none. */
  scenario: string | null;
  sandbox_id: string;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
}

/** Bodies larger than this are kept as a note, not as data: the journal must stay small. */
const MAX_BODY_CHARS = 64 * 1024;

/** A bounded ring buffer: the oldest entry goes when a new one arrives at capacity. */
export class Journal {
  private entries: JournalEntry[] = [];
  private next = 1;

  constructor(readonly capacity: number) {}

  nextId(): string {
    return `req_${this.next++}`;
  }

  add(entry: JournalEntry): void {
    if (this.capacity <= 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Newest first. */
  list(): JournalEntry[] {
    return this.entries.slice().reverse();
  }

  get(id: string): JournalEntry | undefined {
    return this.entries.find((e) => e.id === id);
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

function bodyValue(text: string | undefined): unknown {
  if (text === undefined || text.length === 0) return null;
  if (text.length > MAX_BODY_CHARS) return `[${text.length} characters, not kept]`;
  try {
    return redact(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Keeps a copy of what the response sends (res.json ends in res.send). */
function captureBody(res: Response): () => string | undefined {
  let captured: string | undefined;
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    if (captured === undefined)
      captured = Buffer.isBuffer(body)
        ? body.toString('utf8')
        : typeof body === 'string'
          ? body
          : JSON.stringify(body);
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
): JournalEntry {
  return {
    id,
    at,
    method: req.method,
    path: req.path,
    query: redact({ ...req.query }) as Record<string, unknown>,
    status: res.headersSent ? res.statusCode : null,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    scenario: appliedScenarios(req).join(', ') || null,
    sandbox_id: req.world.id,
    request_headers: redactHeaders(req.headers),
    request_body: req.body === undefined ? null : redact(req.body),
    response_body: bodyValue(body),
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
