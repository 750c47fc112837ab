import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { expiryDue } from '../api/payprovider/settle.js';
import type { AppDeps } from '../app/deps.js';
import { scenarioState } from '../scenarios/state.js';
import type { World } from '../world/world.js';
import { writeAnswer } from './answer.js';
import { clientAddress, clientProtocol } from './client-address.js';
import { fastSearch } from './fast-search.js';
import { countRequest, uncount } from './rate-limit.js';
import { rateCountersOf } from './rate-counters.js';
import type { RequestContext } from './request-context.js';
import { recordRequest } from './request-journal.js';
import { cacheable, cachedAnswer, keepAnswer } from './response-cache.js';
import { enterWorld, liveWorldOf, stampVersion } from './world-stage.js';

/** Answers a request and returns true, or returns false (having sent nothing) to leave it to Express. */
export type FastRead = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The context of an anonymous read on the fast path: no credential, no body, no scenario. */
function fastContext(
  req: IncomingMessage,
  res: ServerResponse,
  world: World,
  url: string,
  trustProxy: boolean,
): RequestContext {
  return {
    req,
    res,
    started: performance.now(),
    world,
    principal: {},
    protocol: clientProtocol(req, trustProxy),
    address: clientAddress(req, trustProxy),
    path: pathOf(url),
    query: {},
    body: undefined,
    applied: [],
    sent: undefined,
  };
}

/**
 * The hot read path, in front of Express: a public GET is answered from the world's response
 * cache, or for a listings search from the search itself (fast-search.ts), before Express sets up
 * the request. It calls the same stage functions as the full path and skips the stages that
 * cannot change such a request (docs/architecture.md): the version, client and world, the
 * journal, the rate limit, the cache, and for a search the handler and cache record. It finds its
 * answer (the cache lookup, or the search) before it counts or records anything, so a request it
 * gives up on has changed nothing; the full path counts first.
 *
 * Anything else goes to the full path untouched: other methods, credentials of any kind, an
 * `X-Sandbox-Scenario` header or a sticky scenario, a condition (`If-None-Match`), an `Origin`
 * (CORS headers), a world not loaded yet
 * or a malformed id, a payment hold due to expire, a request over its rate limit (so the full path
 * answers the 429), and every miss but the listings searches fast-search.ts answers.
 */
export function fastReads(deps: AppDeps): FastRead {
  const { config, worlds, version } = deps;
  const search = fastSearch();
  const counters = rateCountersOf(worlds);
  return (req, res) => {
    const url = req.url;
    if (url === undefined || !url.startsWith('/api/') || req.headers.origin !== undefined) return false;
    const world = liveWorldOf(worlds, req);
    if (!world || !scenarioState(world).startupApplied || expiryDue(world)) return false;
    const ctx = fastContext(req, res, world, url, config.trustProxy);
    if (!cacheable(ctx)) return false;
    const at = world.clock.nowIso();
    const storeVersion = world.store.version;
    const hit = cachedAnswer(ctx);
    const answer = hit ?? search(ctx);
    if (!answer) return false;
    const counted = countRequest(ctx, config, counters);
    if (counted?.retryAfterS !== undefined) {
      uncount(counted);
      return false;
    }
    stampVersion(res, version);
    enterWorld(worlds, world, req, res);
    for (const [name, value] of counted?.headers ?? []) res.setHeader(name, value);
    ctx.query = answer.query;
    writeAnswer(ctx, answer);
    if (!hit) keepAnswer(ctx, storeVersion, answer);
    recordRequest(ctx, config.journalSize, { at, status: answer.status });
    return true;
  };
}
