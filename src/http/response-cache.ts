import { listSticky } from '../scenarios/state.js';
import type { Request, RequestHandler, Response } from 'express';
import { extra, type World } from '../world.js';

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

interface Entry {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: string;
  /** Sandbox time the entry was made. */
  at: number;
}

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
    if (entry.body.length > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
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
    this.bytes -= entry.body.length;
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
  return listSticky(world).length > 0;
}

/** A request whose answer depends only on the URL and the world's data. */
function cacheable(req: Request, res: Response): boolean {
  const h = req.headers;
  return (
    req.method === 'GET' &&
    h.authorization === undefined &&
    h['x-guest-token'] === undefined &&
    h['x-sandbox-scenario'] === undefined &&
    !/[?&]api_key=/.test(req.url) &&
    res.getHeader('x-sandbox-scenario-applied') === undefined &&
    !hasStickyScenarios(req.world)
  );
}

function keyOf(req: Request): string {
  return `${req.headers['accept-language'] ?? ''}\n${req.originalUrl}`;
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
      res.set(hit.headers);
      res.status(hit.status).send(hit.body);
      return;
    }
    record(res, cache, version, key, world);
    next();
  };
}

function record(res: Response, cache: ResponseCache, version: number, key: string, world: World): void {
  const before = new Set(Object.keys(res.getHeaders()));
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    const type = String(res.getHeader('content-type') ?? '');
    if (
      res.statusCode === 200 &&
      typeof body === 'string' &&
      type.includes('json') &&
      world.store.version === version &&
      res.getHeader('x-sandbox-scenario-applied') === undefined
    ) {
      const headers: Entry['headers'] = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (!before.has(name) && value !== undefined) headers[name] = value;
      }
      cache.set(version, key, { status: 200, headers, body, at: world.clock.now() });
    }
    return send(body);
  };
}
