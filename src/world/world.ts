import { createClock, type Clock } from './clock.js';
import type { Store } from '../store/store.js';
import type { Db } from '../store/types.js';

/** What a world's seeded data is built from: the same options give byte-identical data. */
export interface SeedOptions {
  seed: number;
  listings: number;
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
  /** Back to the seed: data, clock (unfrozen, at the seed's start), and every extra's reset hook. */
  reset(): Promise<void>;
  /** Runs `hook` at each reset, before the seeded data is put back (awaited when it returns a promise). */
  onReset(hook: () => unknown): void;
}

/**
 * A world over `store`. `reseed` builds the seeded database again (a reset); it is passed in, so
 * the world does not depend on the seeders (world/open.ts loads them).
 */
export function makeWorld(
  id: string,
  store: Store,
  seedOptions: SeedOptions,
  reseed: () => Promise<Db>,
): World {
  const clock = createClock(store.db.meta.clock);
  store.onBeforeWrite((db) => {
    db.meta.clock = clock.state();
  });
  const resetHooks: (() => unknown)[] = [];
  return {
    id,
    store,
    clock,
    seedOptions,
    extras: new Map(),
    async reset() {
      const db = await reseed();
      const before = clock.state();
      clock.freeze(false);
      clock.set(Date.parse(db.meta.clock.now));
      try {
        await store.replace(db);
      } catch (err) {
        // Not saved, so not reset: the store took the data back, and the clock goes back too.
        clock.set(Date.parse(before.now));
        clock.freeze(before.frozen);
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
 * @example const texts = perStoreVersion(world, 'listings.viewTexts', () => new Map<string, string>());
 */
export function perStoreVersion<T>(world: World, key: string, make: () => T): T {
  const kept = extra(world, key, () => ({ version: -1, db: null as unknown, value: undefined as T }));
  const { store } = world;
  if (kept.version !== store.version || kept.db !== store.db) {
    kept.value = make();
    kept.version = store.version;
    kept.db = store.db;
  }
  return kept.value;
}
