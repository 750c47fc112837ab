import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { anyScenarioOn, appliedScenarios } from '../scenarios/query.js';
import { extra, type World } from '../world/world.js';
import type { Principal } from './principal.js';
import { BASE_URL_HEADERS, baseUrl } from '../api/base-url.js';
import type { Operation } from '../contract/spec.js';
import { WARNING_HEADER } from '../contract/warnings.js';

/** Entries kept per world (least recently used goes first). */
export const ANSWER_CACHE_ENTRIES = 500;
/** Bytes of bodies kept per world, so a few huge pages cannot hold on to much memory. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** Sandbox ms an entry stays valid: writes and clock changes empty the cache, this covers a running clock. */
export const ANSWER_CACHE_TTL_MS = 1000;

/** A kept answer: what the handler sent (status 200), its headers and its bytes. */
interface Entry {
  headers: Record<string, string | number | string[]>;
  bytes: Buffer;
  /** Sandbox time it was made. */
  at: number;
}

/** One world's cache: valid for one store version only. */
export class AnswerCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  private version = -1;

  constructor(
    readonly maxEntries = ANSWER_CACHE_ENTRIES,
    readonly maxBytes = ANSWER_CACHE_BYTES,
  ) {}

  get(version: number, key: string, now: number): Entry | undefined {
    if (version !== this.version) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.at || now - entry.at >= ANSWER_CACHE_TTL_MS) {
      this.delete(key, entry);
      return undefined;
    }
    // Map order is insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(version: number, key: string, entry: Entry): void {
    if (version !== this.version) this.clear(version);
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    if (entry.bytes.length > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
  }

  clear(version = -1): void {
    this.entries.clear();
    this.bytes = 0;
    this.version = version;
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes.length;
  }
}

/** The world's answer cache (created on first use, emptied on reset). */
export function answerCacheOf(world: World): AnswerCache {
  return extra(world, 'answer-cache', () => {
    const cache = new AnswerCache();
    world.onReset(() => cache.clear());
    return cache;
  });
}

/** The kind of caller, the only part of the principal a cacheable answer may depend on. */
function principalKind(p: Principal): string {
  return `${p.user ? 'user' : ''}${p.guest ? '+guest' : ''}` || 'anonymous';
}

/**
 * The key of a request's answer, from the contract: the operation, each parameter it declares as
 * the request sends it (after the leniencies), the kind of caller and the base URL (bodies hold
 * absolute URLs). The world and its store version are the cache's. Validation is a function of
 * these values, so an answer kept for a request that passed it answers any request of the same key.
 */
export function answerKey(op: Operation, req: Request): string {
  const values = op.parameters.map((p) => {
    if (p.in === 'path') return req.params[p.name];
    if (p.in === 'query') return (req.query as Record<string, unknown>)[p.name];
    if (p.in === 'header') return req.headers[p.name.toLowerCase()];
    return undefined;
  });
  return JSON.stringify([op.operationId, principalKind(req.principal), baseUrl(req), values]);
}

/**
 * Whether the cache may answer a request and keep its answer: a GET no scenario touches, whose
 * query holds only declared parameters and the operation's query credentials (the kind covers them).
 */
function cacheableRequest(req: Request, known: ReadonlySet<string>): boolean {
  if (req.method !== 'GET' || anyScenarioOn(req) || appliedScenarios(req).length > 0) return false;
  for (const name in req.query) if (!known.has(name)) return false;
  return true;
}

/** The headers the key covers: the base URL's and the operation's declared header parameters. */
function coveredHeaders(op: Operation): Set<string> {
  const declared = op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
  return new Set([...BASE_URL_HEADERS, ...declared]);
}

/**
 * Watches what the handler reads of the request's headers and principal until `stop()`: the names
 * it read that the key does not cover. A principal's user or guest read while there is one is
 * uncovered (the key holds only the kind).
 */
function watchReads(req: Request, covered: Set<string>): { uncovered: Set<string>; stop: () => void } {
  const uncovered = new Set<string>();
  const { headers, principal } = req;
  req.headers = new Proxy(headers, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !covered.has(name)) uncovered.add(`header ${name}`);
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
  req.principal = new Proxy(principal, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if ((name === 'user' || name === 'guest') && value !== undefined) uncovered.add(`principal.${name}`);
      return value;
    },
  });
  const stop = () => {
    req.headers = headers;
    req.principal = principal;
  };
  return { uncovered, stop };
}

/** The headers set on `res` since `before` was taken, by their names as written. */
function headersSince(res: Response, before: Set<string>): Entry['headers'] {
  const headers: Entry['headers'] = {};
  // outgoingMessage.getRawHeaderNames keeps the names as the handler wrote them.
  for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
    const value = res.getHeader(name);
    if (!before.has(name.toLowerCase()) && value !== undefined) headers[name] = value;
  }
  return headers;
}

/** A request the cache could not answer: its key, at its store version. */
type Miss = { key: string; version: number };

/** The answer cache of one operation: its lookup, and its handler with the answer kept. */
export interface AnswerCacheStage {
  /** Before validation: a kept answer to the same key is sent as the handler sent it. */
  lookup: RequestHandler;
  /** The handler, whose 200 JSON answer to a request the lookup missed is kept. */
  keeping: (handler: RequestHandler) => RequestHandler;
}

/**
 * The answer cache stage of one operation; undefined unless openapi.yaml marks it
 * `x-sandbox-cacheable`. `lookup` answers a request from a kept answer of the same key (same store
 * version, within {@link ANSWER_CACHE_TTL_MS}), so a hit skips validation and the handler; on a
 * miss, `keeping` watches what the handler reads and keeps its 200 JSON answer, unless the
 * handler read an input the key does not cover (logged once per operation and input: the
 * operation is then answered by its handler every time) or added a warning of its own.
 */
export function answerCache(op: Operation, log: Logger): AnswerCacheStage | undefined {
  if (!op.cacheable) return undefined;
  const known = new Set([
    ...op.parameters.filter((p) => p.in === 'query').map((p) => p.name),
    ...op.queryCredentials,
  ]);
  const covered = coveredHeaders(op);
  const reported = new Set<string>();
  const misses = new WeakMap<Request, Miss>();
  const report = (uncovered: Set<string>) => {
    for (const input of uncovered) {
      if (reported.has(input)) continue;
      reported.add(input);
      log.warn(
        { operationId: op.operationId, input },
        'answer not cached: the handler read an input its key does not cover',
      );
    }
  };
  const lookup: RequestHandler = (req, res, next) => {
    if (!cacheableRequest(req, known)) return next();
    const { world } = req;
    const key = answerKey(op, req);
    const hit = answerCacheOf(world).get(world.store.version, key, world.clock.now());
    if (!hit) {
      misses.set(req, { key, version: world.store.version });
      return next();
    }
    for (const name in hit.headers) res.setHeader(name, hit.headers[name]);
    res.status(200).send(hit.bytes);
  };
  const keeping =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) => {
      const miss = misses.get(req);
      if (!miss) return handler(req, res, next);
      const before = new Set(res.getHeaderNames());
      const warnings = res.getHeader(WARNING_HEADER);
      const watch = watchReads(req, covered);
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        watch.stop();
        res.send = send;
        report(watch.uncovered);
        const { world } = req;
        const kept =
          res.statusCode === 200 &&
          typeof body === 'string' &&
          String(res.getHeader('content-type')).includes('json') &&
          res.getHeader(WARNING_HEADER) === warnings &&
          appliedScenarios(req).length === 0 &&
          watch.uncovered.size === 0 &&
          world.store.version === miss.version;
        if (kept) {
          const entry = {
            headers: headersSince(res, before),
            bytes: Buffer.from(body),
            at: world.clock.now(),
          };
          answerCacheOf(world).set(miss.version, miss.key, entry);
        }
        return send(body);
      };
      return handler(req, res, next);
    };
  return { lookup, keeping };
}
