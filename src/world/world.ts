import { createClock, type Clock, type ClockState } from './clock.js';
import type { Store } from '../store/store.js';
import type { Db, DbMeta } from '../store/types.js';

/** What a world's seeded data is built from: the same options give byte-identical data. */
export interface SeedOptions {
  seed: number;
  listings: number;
  /** The clock's start (ISO 8601), pinned; empty: the wall time when the world is seeded. */
  clockStart: string;
}

/**
 * One independent sandbox state: its data and its clock. Modules that need per-world state
 * of their own (scenarios, journal, rate-limit counters) keep it in `extras` under their name.
 */
export interface World {
  id: string;
  store: Store;
  clock: Clock;
  seedOptions: SeedOptions;
  extras: Map<string, unknown>;
  /**
   * Back to the seed: data, clock (unfrozen, at the seed's start: the pinned one, else the wall
   * time now) and every extra's reset hook.
   */
  reset(): Promise<void>;
  /** Runs `hook` at each reset, before the seeded data is put back (awaited when it returns a promise). */
  onReset(hook: () => unknown): void;
}

/**
 * The clock a stored database goes on from: a running clock moved on by the wall time since it
 * was recorded (a restart after an hour down finds sandbox time an hour later, as it would have
 * been had the sandbox run on), a frozen one where it stood.
 */
export function continuedClock(meta: DbMeta, wallMs: number): ClockState {
  const recorded = meta.clock_recorded_at === undefined ? NaN : Date.parse(meta.clock_recorded_at);
  if (meta.clock.frozen || Number.isNaN(recorded)) return meta.clock;
  const now = Date.parse(meta.clock.now) + Math.max(0, wallMs - recorded);
  return { ...meta.clock, now: new Date(now).toISOString() };
}

/**
 * A world over `store`. `reseed` builds the seeded database again (a reset) with its clock
 * starting at the wall time it is given (or the pinned start); it is passed in, so the world does
 * not depend on the seeders (world/open.ts loads them). `wall` is the wall clock.
 */
export function makeWorld(
  id: string,
  store: Store,
  seedOptions: SeedOptions,
  reseed: (wallMs: number) => Promise<Db>,
  wall: () => number = Date.now,
): World {
  const clock = createClock(continuedClock(store.db.meta, wall()), wall);
  store.onBeforeWrite((db) => {
    db.meta.clock = clock.state();
    db.meta.clock_recorded_at = new Date(wall()).toISOString();
  });
  const resetHooks: (() => unknown)[] = [];
  return {
    id,
    store,
    clock,
    seedOptions,
    extras: new Map(),
    async reset() {
      const db = await reseed(wall());
      const before = clock.state();
      clock.freeze(false);
      clock.set(Date.parse(db.meta.clock.now));
      try {
        await store.replace(db);
      } catch (err) {
        // Not saved, so not reset: the store took the data back, and the clock goes back too.
        clock.freeze(before.frozen);
        clock.set(Date.parse(before.now));
        throw err;
      }
      // Every hook starts at once (the synchronous ones finish here); some wait, e.g. emptying uploads.
      await Promise.all(resetHooks.map((hook) => hook()));
    },
    onReset: (hook) => resetHooks.push(hook),
  };
}

/**
 * Per-world state of a module (scenarios, journal, counters): created on first use.
 * @example const journal = extra(req.world, 'journal', () => new Journal(1000));
 */
export function extra<T>(world: World, key: string, init: () => T): T {
  if (!world.extras.has(key)) world.extras.set(key, init());
  return world.extras.get(key) as T;
}

/**
 * Per-world state derived from the store, made again after any write (the store version) or a
 * swapped database (reset, snapshot restore).
 * @example const next = perStoreVersion(world, 'money.nextExpiry', () => earliestExpiry(world.store.db));
 */
export function perStoreVersion<T>(world: World, key: string, make: (previous: T | undefined) => T): T {
  const kept = extra(world, key, () => ({
    version: -1,
    db: null as unknown,
    value: undefined as T | undefined,
  }));
  const { store } = world;
  if (kept.version !== store.version || kept.db !== store.db) {
    kept.value = make(kept.value);
    kept.version = store.version;
    kept.db = store.db;
  }
  return kept.value as T;
}
