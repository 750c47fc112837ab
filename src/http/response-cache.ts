import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { scenarioState } from '../scenarios/state.js';
import { extra, type World } from '../world/world.js';
import { writeAnswer, type Answer } from './answer.js';
import { contextOf } from './express-context.js';
import type { RequestContext } from './request-context.js';

/** Entries kept per world (least recently used goes first). */
export const RESPONSE_CACHE_ENTRIES = 500;
/** Bytes of bodies kept per world, so a few huge pages cannot hold on to much memory. */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * Sandbox milliseconds an entry stays valid. Every write bumps the store version (which empties
 * the cache), and so does every clock change; this bound only covers time passing by itself on a
 * running clock (a listing whose duration ends while its page sits in the cache).
 */
export const RESPONSE_CACHE_TTL_MS = 1000;

/**
 * A kept answer. Its bytes are kept as a Buffer only: their memory is outside the JS heap, so a
 * cache churning through entries costs the garbage collector next to nothing.
 */
export interface CacheEntry extends Answer {
  /** The query as the handler saw it (validated, with defaults), for the journal of a fast answer. */
  query: Record<string, unknown>;
  /** Sandbox time the entry was made. */
  at: number;
}
type Entry = CacheEntry;
type RawNames = { getRawHeaderNames(): string[] };

/** Memory an entry holds. */
const sizeOf = (entry: Entry) => entry.bytes.length;

/** One world's cache: valid for one store version only. */
export class ResponseCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  private version = -1;

  constructor(
    readonly maxEntries = RESPONSE_CACHE_ENTRIES,
    readonly maxBytes = RESPONSE_CACHE_BYTES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(version: number, key: string, now: number): Entry | undefined {
    if (version !== this.version) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.at || now - entry.at >= RESPONSE_CACHE_TTL_MS) {
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
    if (sizeOf(entry) > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += sizeOf(entry);
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
    this.bytes -= sizeOf(entry);
  }
}

/** The world's response cache (created on first use, emptied on reset). */
export function responseCacheOf(world: World): ResponseCache {
  return extra(world, 'response-cache', () => {
    const cache = new ResponseCache();
    world.onReset(() => cache.clear());
    return cache;
  });
}

/** True when some sticky scenario is switched on in the world: its answers must not come from the cache. */
export function hasStickyScenarios(world: World): boolean {
  return scenarioState(world).switches.length > 0;
}

/**
 * The cache key: everything besides the world's data that the answer depends on. Bodies hold
 * absolute URLs (images), so the scheme and Host are part of it, as is the language.
 */
export function cacheKey(
  protocol: string,
  host: string | undefined,
  lang: string | undefined,
  url: string,
): string {
  return `${protocol}://${host ?? ''}\n${lang ?? ''}\n${url}`;
}

/**
 * A GET that carries no credential of any kind, no `X-Sandbox-Scenario` and no condition
 * (`If-None-Match`, `If-Modified-Since`: those are answered by Express's freshness check): its
 * answer can only depend on the URL, the headers in the cache key and the world.
 */
function anonymousRead(method: string | undefined, headers: IncomingHttpHeaders, url: string): boolean {
  return (
    method === 'GET' &&
    headers.authorization === undefined &&
    headers['x-guest-token'] === undefined &&
    headers['x-sandbox-scenario'] === undefined &&
    headers['if-none-match'] === undefined &&
    headers['if-modified-since'] === undefined &&
    !/[?&]api_key=/.test(url)
  );
}

/**
 * A request the cache may answer, and whose answer it may keep: an anonymous read of the public
 * API (`/api/`) that no scenario changes (no header, no sticky switch, none applied).
 */
export function cacheable(ctx: RequestContext): boolean {
  const { req } = ctx;
  return (
    ctx.path.startsWith('/api/') &&
    anonymousRead(req.method, req.headers, req.url ?? '') &&
    ctx.applied.length === 0 &&
    !hasStickyScenarios(ctx.world)
  );
}

function keyOf(ctx: RequestContext): string {
  const { headers } = ctx.req;
  return cacheKey(ctx.protocol, headers.host, headers['accept-language'], ctx.req.url ?? '');
}

/**
 * The cache stage, for a {@link cacheable} request: the kept answer to a repeat of it (for this
 * store version and within its sandbox-time bound), or undefined. The journal then shows the
 * query the answer was made for, validated like the request.
 */
export function cachedAnswer(ctx: RequestContext): CacheEntry | undefined {
  const { world } = ctx;
  const hit = responseCacheOf(world).get(world.store.version, keyOf(ctx), world.clock.now());
  if (hit) ctx.query = hit.query;
  return hit;
}

/** Keeps the answer to a cacheable request, made for the store version `version` (a write since drops it). */
export function keepAnswer(ctx: RequestContext, version: number, answer: Omit<CacheEntry, 'at'>): void {
  const { world } = ctx;
  if (world.store.version !== version) return;
  responseCacheOf(world).set(version, keyOf(ctx), { ...answer, at: world.clock.now() });
}

/**
 * The cache stage on the full path, after rate limiting, the journal and scenarios (they apply to
 * every request) and before validation: a hit is written as it was kept, skipping validation,
 * the handler and serialization; on a miss the answer is kept once the handler has sent it (only
 * a 200 JSON answer without ETag or Last-Modified).
 */
export function responseCache(): RequestHandler {
  return (req, res, next) => {
    const ctx = contextOf(res);
    if (!cacheable(ctx)) return next();
    const hit = cachedAnswer(ctx);
    if (hit) return writeAnswer(ctx, hit);
    keepOnSend(ctx, res, ctx.world.store.version);
    next();
  };
}

function keepOnSend(ctx: RequestContext, res: Response, version: number): void {
  const before = new Set(res.getHeaderNames());
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    const type = String(res.getHeader('content-type') ?? '');
    if (
      res.statusCode === 200 &&
      typeof body === 'string' &&
      type.includes('json') &&
      res.getHeader('x-sandbox-scenario-applied') === undefined &&
      // Conditional answers (304 on If-None-Match) stay with their handler.
      res.getHeader('etag') === undefined &&
      res.getHeader('last-modified') === undefined
    ) {
      const headers: CacheEntry['headers'] = {};
      // outgoingMessage.getRawHeaderNames (Node ≥ 15.13) keeps the names as the handler wrote them.
      for (const name of (res as unknown as RawNames).getRawHeaderNames()) {
        const value = res.getHeader(name);
        if (!before.has(name.toLowerCase()) && value !== undefined) headers[name] = value;
      }
      keepAnswer(ctx, version, { status: 200, headers, bytes: Buffer.from(body), query: { ...ctx.query } });
    }
    return send(body);
  };
}
