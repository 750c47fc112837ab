import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type IncrementResponse, type Store } from 'express-rate-limit';
import type { Clock } from '../world/clock.js';
import type { Config } from '../process/config.js';
import { ApiError, Messages } from './errors.js';
import { extra, type World } from '../world/world.js';
import { isControlPath } from './control-paths.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows on the world's sandbox clock, so advancing the clock ends a window
 * (tests never sleep). The reset time handed to express-rate-limit is translated to wall time,
 * because the library computes `t=` and `Retry-After` against the wall clock.
 */
export class SandboxClockStore implements Store {
  private hits = new Map<string, { count: number; start: number }>();
  readonly localKeys = true;

  constructor(private readonly clock: Clock) {}

  increment(key: string): IncrementResponse {
    const now = this.clock.now();
    let entry = this.hits.get(key);
    // A window that ended, or one that starts in the future (the clock was set back), starts over.
    if (!entry || now >= entry.start + RATE_LIMIT_WINDOW_MS || now < entry.start) {
      entry = { count: 0, start: now };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    const leftMs = entry.start + RATE_LIMIT_WINDOW_MS - now;
    return { totalHits: entry.count, resetTime: new Date(Date.now() + leftMs) };
  }

  decrement(key: string): void {
    const entry = this.hits.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  resetKey(key: string): void {
    this.hits.delete(key);
  }

  resetAll(): void {
    this.hits.clear();
  }
}

/** The policy name in the `RateLimit` headers of the per-address limiter. */
const addressPolicy = (limit: number) => `${limit}-per-minute`;

function limiter(limit: number, store: Store, identifier: string): RequestHandler {
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    store,
    identifier,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) =>
      req.principal.user?.apiKeyId ? `key:${req.principal.user.apiKeyId}` : ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new ApiError(429, Messages.tooManyRequests)),
    // Limiters are built per world, on first use inside a request; the library's checks warn on that.
    validate: false,
  });
}

interface WorldLimiters {
  address: RequestHandler | null;
  apiKey: RequestHandler | null;
  addressStore: SandboxClockStore;
}

function limitersOf(world: World, config: Config): WorldLimiters {
  return extra(world, 'rate-limit', () => {
    const addressStore = new SandboxClockStore(world.clock);
    const keyStore = new SandboxClockStore(world.clock);
    world.onReset(() => {
      addressStore.resetAll();
      keyStore.resetAll();
    });
    return {
      address:
        config.rateLimit > 0
          ? limiter(config.rateLimit, addressStore, addressPolicy(config.rateLimit))
          : null,
      apiKey:
        config.rateLimitApiKey > 0
          ? limiter(config.rateLimitApiKey, keyStore, `${config.rateLimitApiKey}-per-minute-api-key`)
          : null,
      addressStore,
    };
  });
}

/**
 * 100 requests a minute per client address, 1000 per verified API key (flags; 0 turns one off),
 * counted per world. Control calls (`/__sandbox/*`) are not limited, so a test harness can always
 * reset or inspect a sandbox that its own traffic has limited.
 */
export function rateLimiting(config: Config): RequestHandler {
  return (req, res, next) => {
    if (isControlPath(req.path)) return next();
    const limiters = limitersOf(req.world, config);
    const chosen = req.principal.user?.apiKeyId ? limiters.apiKey : limiters.address;
    if (!chosen) return next();
    return chosen(req, res, next);
  };
}

/** express-rate-limit's partition key (`pk=`): the first 12 hex digits of the key's SHA-256, base64. */
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

/**
 * Counts a request without an API key from `address` against the world's per-address limit,
 * synchronously, for the fast read path (http/fast-read.ts): the same store and the same draft-8
 * `RateLimit` / `RateLimit-Policy` headers express-rate-limit writes. Returns the headers to send,
 * or undefined when the request is over the limit: nothing is then counted, and the full path
 * counts it and answers the 429.
 */
export function countAddressHit(
  world: World,
  config: Config,
  address: string,
): [string, string][] | undefined {
  if (config.rateLimit <= 0) return [];
  const { addressStore } = limitersOf(world, config);
  const key = ipKeyGenerator(address);
  const { totalHits, resetTime } = addressStore.increment(key);
  if (totalHits > config.rateLimit) {
    addressStore.decrement(key);
    return undefined;
  }
  const name = addressPolicy(config.rateLimit);
  const resetS = Math.max(0, Math.ceil(((resetTime?.getTime() ?? Date.now()) - Date.now()) / 1000));
  return [
    ['RateLimit', `"${name}"; r=${config.rateLimit - totalHits}; t=${resetS}`],
    [
      'RateLimit-Policy',
      `"${name}"; q=${config.rateLimit}; w=${RATE_LIMIT_WINDOW_MS / 1000}; pk=:${partitionKeyOf(key)}:`,
    ],
  ];
}
