import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { expiryDue } from '../api/payprovider/settle.js';
import { journalFastRead } from './request-journal.js';
import { countAddressHit } from './rate-limit.js';
import type { AppDeps } from '../app/deps.js';
import { scenarioState } from '../scenarios/state.js';
import { SANDBOX_ID_HEADER } from '../world/sandbox-id.js';
import { fastSearch } from './fast-search.js';
import { anonymousRead, cacheKey, hasStickyScenarios, responseCacheOf } from './response-cache.js';

/** Answers a request and returns true, or returns false (having sent nothing) to leave it to Express. */
export type FastRead = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The hot read path: a repeat of a public GET already answered 200 (and so already validated) is
 * served from the world's response cache before Express sets up the request, which is most of
 * what a cached answer would otherwise cost. It applies what the full pipeline would have applied
 * to that request, in the same order and with the same results:
 * the world (`X-Sandbox-Id`, echoed), `X-Sandbox-Version`, the per-address rate limit (same counter,
 * same headers), the request journal, and the cache's own checks (store version, sandbox-clock age).
 *
 * Anything else goes to the full path untouched: other methods, credentials of any kind, an
 * `X-Sandbox-Scenario` header or a sticky scenario, an `Origin` (CORS headers), `--trust-proxy`
 * (address and scheme come from headers), a world not loaded yet or a malformed id, a payment hold
 * due to expire, a request over its rate limit (so the full path answers the 429), and every miss
 * but the listings searches that fast-search.ts answers.
 */
export function fastReads(deps: AppDeps): FastRead {
  const { config, worlds, version } = deps;
  if (config.trustProxy) return () => false;
  const search = fastSearch(deps);
  return (req, res) => {
    const url = req.url;
    const h = req.headers;
    if (url === undefined || !url.startsWith('/api/') || h.origin !== undefined) return false;
    if (!anonymousRead(req.method, h, url)) return false;
    const world = worlds.liveWorld(req);
    if (!world || !scenarioState(world).startupApplied || hasStickyScenarios(world) || expiryDue(world))
      return false;
    const started = performance.now();
    const protocol = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
    const key = cacheKey(protocol, h.host, h['accept-language'], url);
    const commonHeaders = (limitHeaders: [string, string][]) => {
      res.setHeader('X-Sandbox-Version', version);
      if (h['x-sandbox-id'] !== undefined) res.setHeader(SANDBOX_ID_HEADER, world.id);
      for (const [name, value] of limitHeaders) res.setHeader(name, value);
    };
    const hit = responseCacheOf(world).get(world.store.version, key, world.clock.now());
    if (!hit) return search(req, res, { world, protocol, key, started, commonHeaders });
    const limitHeaders = countAddressHit(world, config, req.socket.remoteAddress ?? '');
    if (!limitHeaders) return false;
    worlds.markUsed(world);
    const at = world.clock.nowIso();
    res.statusCode = hit.status;
    commonHeaders(limitHeaders);
    for (const name in hit.headers) res.setHeader(name, hit.headers[name]);
    res.setHeader('Content-Length', hit.bytes.length);
    res.end(hit.bytes);
    journalFastRead(world, config.journalSize, req, pathOf(url), hit.query, at, started, hit.bytes);
    return true;
  };
}

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
