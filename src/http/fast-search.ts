import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ListingsQuery } from '../api/listings/query.js';
import { searchPageJson } from '../api/listings/search-page.js';
import { baseUrl } from './base-url.js';
import { journalFastRead } from './request-journal.js';
import { countAddressHit } from './rate-limit.js';
import type { AppDeps } from '../app/deps.js';
import type { World } from '../world/world.js';
import { strictQuery } from './fast-query.js';
import { responseCacheOf } from './response-cache.js';

/** The Content-Type Express's `res.json` sends, as the response cache records it. */
const JSON_TYPE = 'application/json; charset=utf-8';
const SEARCH_PATH = '/api/shop/listings';

/** What the fast read path has already settled for the request (fast-read.ts). */
export interface FastContext {
  world: World;
  protocol: string;
  /** The response cache key of the request. */
  key: string;
  /** performance.now() when the fast path took the request. */
  started: number;
  /** Sets the headers every fast answer carries (version, sandbox id, rate limit). */
  commonHeaders: (limitHeaders: [string, string][]) => void;
}

/**
 * Answers a listings search the response cache does not hold, without Express: the query is
 * checked by {@link strictQuery} (only queries the request validator certainly accepts, with the
 * query object it would hand over), the page comes from the handler's own search as JSON text
 * (`searchPageJson`), and the answer is recorded in the response cache and the journal as the full
 * path would. An uncached search then costs the search and the JSON, not Express's middleware,
 * routing and validation. Returns false, having sent nothing, for anything else: another path, a
 * query the check leaves to the validator, a rule of the search itself (lat/lng/radius together,
 * minPrice ≤ maxPrice), a request over its rate limit.
 */
export function fastSearch(
  deps: AppDeps,
): (req: IncomingMessage, res: ServerResponse, ctx: FastContext) => boolean {
  const { config, worlds } = deps;
  const check = strictQuery('searchListings');
  return (req, res, ctx) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if ((q < 0 ? url : url.slice(0, q)) !== SEARCH_PATH) return false;
    const query = check(q < 0 ? '' : url.slice(q + 1));
    if (!query) return false;
    const { world } = ctx;
    const at = world.clock.nowIso();
    let bytes: Buffer;
    try {
      const page = searchPageJson(
        world,
        query as ListingsQuery,
        baseUrl({ protocol: ctx.protocol, headers: req.headers, socket: req.socket }),
      );
      bytes = Buffer.from(page);
    } catch {
      // An ApiError of the search's own rules, or any failure: the full path answers it (its 400,
      // or the 500 it logs).
      return false;
    }
    const limitHeaders = countAddressHit(world, config, req.socket.remoteAddress ?? '');
    if (!limitHeaders) return false;
    worlds.markUsed(world);
    res.statusCode = 200;
    ctx.commonHeaders(limitHeaders);
    res.setHeader('Content-Type', JSON_TYPE);
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
    const cached = { ...query };
    responseCacheOf(world).set(world.store.version, ctx.key, {
      status: 200,
      headers: { 'Content-Type': JSON_TYPE },
      bytes,
      query: cached,
      at: world.clock.now(),
    });
    journalFastRead(world, config.journalSize, req, SEARCH_PATH, cached, at, ctx.started, bytes);
    return true;
  };
}
