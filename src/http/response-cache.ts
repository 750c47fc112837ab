import { scenarioState } from '../scenarios/state.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { extra, type World } from '../world/world.js';

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

export interface CacheEntry {
  status: number;
  /** The headers the handler set, by their names as written. */
  headers: Record<string, string | number | string[]>;
  /**
   * The body's UTF-8 bytes, as sent. Kept as a Buffer only: its memory is outside the JS heap, so
   * a cache churning through entries costs the garbage collector next to nothing.
   */
  bytes: Buffer;
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
 * A GET that carries no credential of any kind and no `X-Sandbox-Scenario`: its answer can only
 * depend on the URL, the headers in the cache key and the world (the cache and the fast read path).
 */
export function anonymousRead(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  url: string,
): boolean {
  return (
    method === 'GET' &&
    headers.authorization === undefined &&
    headers['x-guest-token'] === undefined &&
    headers['x-sandbox-scenario'] === undefined &&
    !/[?&]api_key=/.test(url)
  );
}

/** A request whose answer depends only on the URL and the world's data. */
function cacheable(req: Request, res: Response): boolean {
  return (
    anonymousRead(req.method, req.headers, req.url) &&
    res.getHeader('x-sandbox-scenario-applied') === undefined &&
    !hasStickyScenarios(req.world)
  );
}

function keyOf(req: Request): string {
  return cacheKey(req.protocol, req.headers.host, req.headers['accept-language'], req.url);
}

/**
 * Serves a repeat of an already validated, public GET from the world's cache, skipping
 * validation, search and serialization; on a miss it records the answer once the handler has
 * sent it (only 200 JSON, only when no write happened in between). Mount it after rate
 * limiting, the journal and scenarios (they still apply to every request) and before the
 * validator; `isCacheablePath` limits it to the public API.
 */
export function responseCache(isCacheablePath: (path: string) => boolean): RequestHandler {
  return (req, res, next) => {
    if (!isCacheablePath(req.path) || !cacheable(req, res)) return next();
    const world = req.world;
    const cache = responseCacheOf(world);
    const version = world.store.version;
    const key = keyOf(req);
    const hit = cache.get(version, key, world.clock.now());
    if (hit) {
      // The journal shows the query as validated, like the answer it was made for.
      res.locals.journalQuery = hit.query;
      res.set(hit.headers);
      res.status(hit.status).send(hit.bytes);
      return;
    }
    record(req, res, cache, version, key, world);
    next();
  };
}

function record(
  req: Request,
  res: Response,
  cache: ResponseCache,
  version: number,
  key: string,
  world: World,
): void {
  const before = new Set(res.getHeaderNames());
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    const type = String(res.getHeader('content-type') ?? '');
    if (
      res.statusCode === 200 &&
      typeof body === 'string' &&
      type.includes('json') &&
      world.store.version === version &&
      res.getHeader('x-sandbox-scenario-applied') === undefined &&
      // Conditional answers (304 on If-None-Match) stay with their handler.
      res.getHeader('etag') === undefined &&
      res.getHeader('last-modified') === undefined
    ) {
      const headers: Entry['headers'] = {};
      // outgoingMessage.getRawHeaderNames (Node ≥ 15.13) keeps the names as the handler wrote them.
      for (const name of (res as unknown as RawNames).getRawHeaderNames()) {
        const value = res.getHeader(name);
        if (!before.has(name.toLowerCase()) && value !== undefined) headers[name] = value;
      }
      const bytes = Buffer.from(body);
      const query = { ...(req.query as Record<string, unknown>) };
      cache.set(version, key, { status: 200, headers, bytes, query, at: world.clock.now() });
    }
    return send(body);
  };
}
