import type { WorldRegistry } from '../world/registry-types.js';
import type { World } from '../world/world.js';

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
