import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Config } from '../process/config.js';
import { ApiError, Messages } from './errors.js';
import { extra, type World } from '../world/world.js';
import { isControlPath } from './control-paths.js';
import { RATE_LIMIT_WINDOW_MS, type RateCounters } from './rate-counters.js';
import { contextOf } from './express-context.js';
import type { RequestContext } from './request-context.js';

/** Each world's reset ends the windows its clock times (once per world). */
function watchResets(world: World, counters: RateCounters): void {
  extra(world, 'rate-limit', () => {
    world.onReset(() => counters.endWindowsOf(world));
    return true;
  });
}

/** The limit a request counts against: its key, its counter, and the policy its headers name. */
export interface Limit {
  key: string;
  counters: RateCounters;
  limit: number;
  policy: string;
}

/** The counter of the client's address (IPv6 by /56). */
export const addressKey = (ctx: Pick<RequestContext, 'address'>) => `address:${ipKeyGenerator(ctx.address)}`;

/** The client address's budget; null when that limit is off (0). */
export function addressLimit(
  ctx: Pick<RequestContext, 'address'>,
  config: Config,
  counters: RateCounters,
): Limit | null {
  const limit = config.rateLimit;
  return limit > 0 ? { key: addressKey(ctx), counters, limit, policy: `${limit}-per-minute` } : null;
}

/** A verified API key's budget, else the client address's; null when that limit is off (0). */
function limitOf(ctx: RequestContext, config: Config, counters: RateCounters): Limit | null {
  const apiKeyId = ctx.principal.user?.apiKeyId;
  if (!apiKeyId) return addressLimit(ctx, config, counters);
  const limit = config.rateLimitApiKey;
  return limit > 0
    ? { key: `key:${apiKeyId}`, counters, limit, policy: `${limit}-per-minute-api-key` }
    : null;
}

/** The partition key (`pk=`) of the policy header: the first 12 hex digits of the key's SHA-256, base64. */
const partitionKeys = new Map<string, string>();
function partitionKeyOf(key: string): string {
  let pk = partitionKeys.get(key);
  if (pk === undefined) {
    pk = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
    if (partitionKeys.size >= 10_000) partitionKeys.clear();
    partitionKeys.set(key, pk);
  }
  return pk;
}

/** A counted request: the headers to send, and when it is over the limit, the seconds until the window ends. */
export interface Counted {
  headers: [string, string][];
  retryAfterS?: number;
  /** What it was counted against (for {@link uncount}). */
  limit: Limit;
}

/**
 * The rate-limit stage: counts the request against the process's limit (100 a minute per client
 * address, 1000 per verified API key; flags, 0 turns one off) and gives the IETF draft-8
 * `RateLimit` / `RateLimit-Policy` headers (the format express-rate-limit writes, which the
 * sandbox used before); undefined when no limit applies (a control call, a limit turned off).
 */
export function countRequest(
  ctx: RequestContext,
  config: Config,
  counters: RateCounters,
): Counted | undefined {
  if (isControlPath(ctx.path)) return undefined;
  const limit = limitOf(ctx, config, counters);
  if (!limit) return undefined;
  watchResets(ctx.world, counters);
  // A request that brought its sandbox live was counted against its address then (world-stage.ts).
  const counted = ctx.countedAtLoad === limit.key ? limit.counters.peek(limit.key) : undefined;
  const { totalHits, leftMs } = counted ?? limit.counters.increment(limit.key, ctx.world);
  return countedAs(limit, totalHits, leftMs);
}

/** The headers of a count of `totalHits` with `leftMs` left in the window, and whether it is over. */
export function countedAs(limit: Limit, totalHits: number, leftMs: number): Counted {
  const resetS = Math.max(0, Math.ceil(leftMs / 1000));
  const headers: [string, string][] = [
    ['RateLimit', `"${limit.policy}"; r=${Math.max(limit.limit - totalHits, 0)}; t=${resetS}`],
    [
      'RateLimit-Policy',
      `"${limit.policy}"; q=${limit.limit}; w=${RATE_LIMIT_WINDOW_MS / 1000}; pk=:${partitionKeyOf(limit.key)}:`,
    ],
  ];
  return totalHits > limit.limit ? { headers, retryAfterS: resetS, limit } : { headers, limit };
}

/** Takes a count back: the fast paths leave an over-limit request to the full path, which counts it. */
export function uncount(counted: Counted): void {
  counted.limit.counters.decrement(counted.limit.key);
}

/** The rate-limit stage on the full path: the headers on every counted answer, a 429 with `Retry-After` over the limit. */
export function rateLimiting(config: Config, counters: RateCounters): RequestHandler {
  return (req, res, next) => {
    const ctx = contextOf(res);
    if (req.method === 'POST' && RESET_PATH.test(ctx.path)) freshBudgetOnReset(ctx, res, counters);
    const counted = countRequest(ctx, config, counters);
    if (!counted) return next();
    for (const [name, value] of counted.headers) res.setHeader(name, value);
    if (counted.retryAfterS === undefined) return next();
    res.setHeader('Retry-After', String(counted.retryAfterS));
    next(new ApiError(429, Messages.tooManyRequests));
  };
}

const RESET_PATH = /^\/__sandbox\/reset\/?$/;

/**
 * A reset that succeeds gives its caller's address a fresh budget (beside ending the windows
 * started in the sandbox it resets): with one budget per address, a harness that resets between
 * tests must not find its last test's requests counted, whichever sandbox they named. A reset needs
 * the admin token when one is set, so this gives no budget to a client that could not reset.
 */
function freshBudgetOnReset(ctx: RequestContext, res: ServerResponse, counters: RateCounters): void {
  res.on('finish', () => {
    if (res.statusCode === 200) counters.end(addressKey(ctx));
  });
}
