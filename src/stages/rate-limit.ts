import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Config } from '../process/config.js';
import { ApiError, Messages } from '../contract/errors.js';
import { extra, type World } from '../world/world.js';
import { isControlPath } from '../contract/control-paths.js';
import type { WorldRegistry } from '../world/registry-types.js';

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
export const addressKey = (req: Pick<Request, 'ip'>) => `address:${ipKeyGenerator(req.ip ?? '')}`;

/** The client address's budget; null when that limit is off (0). */
export function addressLimit(req: Pick<Request, 'ip'>, config: Config, counters: RateCounters): Limit | null {
  const limit = config.rateLimit;
  return limit > 0 ? { key: addressKey(req), counters, limit, policy: `${limit}-per-minute` } : null;
}

/** A verified API key's budget, else the client address's; null when that limit is off (0). */
function limitOf(req: Request, config: Config, counters: RateCounters): Limit | null {
  const apiKeyId = req.principal.user?.apiKeyId;
  if (!apiKeyId) return addressLimit(req, config, counters);
  const limit = config.rateLimitApiKey;
  return limit > 0
    ? { key: `key:${apiKeyId}`, counters, limit, policy: `${limit}-per-minute-api-key` }
    : null;
}

/** The partition key (`pk=`) of the policy header: the first 12 hex digits of the key's SHA-256, base64. */
const partitionKeyOf = (key: string): string =>
  Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/** A counted request: the headers to send, and when it is over the limit, the seconds until the window ends. */
export interface Counted {
  headers: [string, string][];
  retryAfterS?: number;
}

/**
 * The rate-limit stage: counts the request against the process's limit (100 a minute per client
 * address, 1000 per verified API key; flags, 0 turns one off) and gives the IETF draft-8
 * `RateLimit` / `RateLimit-Policy` headers (the format express-rate-limit writes, which the
 * sandbox used before); undefined when no limit applies (a control call, a limit turned off).
 */
function countRequest(req: Request, config: Config, counters: RateCounters): Counted | undefined {
  if (isControlPath(req.path)) return undefined;
  const limit = limitOf(req, config, counters);
  if (!limit) return undefined;
  watchResets(req.world, counters);
  // A request that brought its sandbox live was counted against its address then (world.ts, `sandboxAdmission`).
  const counted = req.countedAtLoad === limit.key ? limit.counters.peek(limit.key) : undefined;
  const { totalHits, leftMs } = counted ?? limit.counters.increment(limit.key, req.world);
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
  return totalHits > limit.limit ? { headers, retryAfterS: resetS } : { headers };
}

/** The rate-limit stage: the headers on every counted answer, a 429 with `Retry-After` over the limit. */
export function rateLimiting(config: Config, counters: RateCounters): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'POST' && RESET_PATH.test(req.path)) freshBudgetOnReset(req, res, counters);
    const counted = countRequest(req, config, counters);
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
function freshBudgetOnReset(req: Request, res: Response, counters: RateCounters): void {
  res.on('finish', () => {
    if (res.statusCode === 200) counters.end(addressKey(req));
  });
}

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Windows kept before ended ones are swept out. */
const SWEEP_AT = 10_000;

interface Window {
  count: number;
  /** When it started, on the clock of the world it started in. */
  start: number;
  /** The world whose clock times it: the one the window's first request named. */
  world: World;
}

/**
 * The rate-limit counters of one registry, so of the whole process: one budget per client address
 * and one per API key, whichever sandbox a request names (issue 14: rotating `X-Sandbox-Id` once
 * gave one address a budget per sandbox). Windows are fixed minutes on the sandbox clock of the
 * world their first request named, so `POST /__sandbox/clock {"advance":"1m"}` there ends them and
 * a frozen clock keeps them open (tests never sleep); a window never follows the clock of the
 * sandbox a later request names, which a client could choose to start over. A window ends at once
 * when its world is reset, set back, deleted or evicted.
 */
export class RateCounters {
  private windows = new Map<string, Window>();
  /** The size that starts the next sweep: twice what a sweep left, so sweeps cost O(1) a window. */
  private sweepAt = SWEEP_AT;

  constructor(private readonly isLive: (world: World) => boolean = () => true) {}

  /** Counts one hit of `key` from a request naming `world`: the hits of its window and the ms left in it. */
  increment(key: string, world: World): { totalHits: number; leftMs: number } {
    let window = this.windows.get(key);
    if (!window || this.ended(window)) {
      if (this.windows.size >= this.sweepAt) this.sweep();
      window = { count: 0, start: world.clock.now(), world };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      totalHits: window.count,
      leftMs: window.start + RATE_LIMIT_WINDOW_MS - window.world.clock.now(),
    };
  }

  /** The hits of `key`'s window and the ms left in it, without counting; undefined when it has none open. */
  peek(key: string): { totalHits: number; leftMs: number } | undefined {
    const window = this.windows.get(key);
    if (!window || this.ended(window)) return undefined;
    return {
      totalHits: window.count,
      leftMs: window.start + RATE_LIMIT_WINDOW_MS - window.world.clock.now(),
    };
  }

  /** Ends the window of `key`: its next hit starts a new one. */
  end(key: string): void {
    this.windows.delete(key);
  }

  /** Ends every window timed by `world`'s clock (its reset). */
  endWindowsOf(world: World): void {
    for (const [key, window] of this.windows) if (window.world === world) this.windows.delete(key);
  }

  /** Over: a minute on, its clock set back (before its start), or its world no longer live. */
  private ended(window: Window): boolean {
    const now = window.world.clock.now();
    return now >= window.start + RATE_LIMIT_WINDOW_MS || now < window.start || !this.isLive(window.world);
  }

  private sweep(): void {
    for (const [key, window] of this.windows) if (this.ended(window)) this.windows.delete(key);
    this.sweepAt = Math.max(SWEEP_AT, this.windows.size * 2);
  }
}

const byRegistry = new WeakMap<WorldRegistry, RateCounters>();

/** The counters of a registry's worlds (one registry per process; each test app has its own). */
export function rateCountersOf(worlds: WorldRegistry): RateCounters {
  let counters = byRegistry.get(worlds);
  if (!counters) {
    counters = new RateCounters((world) => worlds.live(world.id) === world);
    byRegistry.set(worlds, counters);
  }
  return counters;
}
