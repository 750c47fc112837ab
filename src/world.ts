import { createClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { boundHeapGrowth } from './heap.js';
import type { SeedOptions } from './seed/seed.js';
import { createFileStore, createMemoryStore, openFileStore, type Store } from './store/store.js';
import type { Db } from './store/types.js';

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
  onReset(hook: () => void): void;
}

/**
 * A builder of the seeded database, loaded on demand: the seeders pull in faker, which costs
 * start-up time a sandbox opening an existing data file does not need to pay.
 */
export async function loadSeeder(options: SeedOptions): Promise<() => Db> {
  const { freshDb: build } = await import('./seed/seed.js');
  return () => build(options);
}

async function freshDb(options: SeedOptions): Promise<Db> {
  return (await loadSeeder(options))();
}

export function seedOptionsOf(config: Config): SeedOptions {
  return { seed: config.seed, listings: config.listings, clockStart: config.clockStart };
}

export function makeWorld(id: string, store: Store, seedOptions: SeedOptions): World {
  const clock = createClock(store.db.meta.clock);
  store.onBeforeWrite((db) => {
    db.meta.clock = clock.state();
  });
  const resetHooks: (() => void)[] = [];
  return {
    id,
    store,
    clock,
    seedOptions,
    extras: new Map(),
    async reset() {
      const db = await freshDb(seedOptions);
      clock.freeze(false);
      clock.set(Date.parse(db.meta.clock.now));
      for (const hook of resetHooks) hook();
      await store.replace(db);
    },
    onReset: (hook) => resetHooks.push(hook),
  };
}

/** Opens the default world as configured: memory, an existing file, or a new file from the seed. */
export async function openDefaultWorld(config: Config): Promise<{ world: World; seeded: boolean }> {
  // The process that serves the default world keeps its heap close to what is live (heap.ts).
  boundHeapGrowth();
  const seedOptions = seedOptionsOf(config);
  if (config.inMemory)
    return {
      world: makeWorld('default', createMemoryStore(await freshDb(seedOptions)), seedOptions),
      seeded: true,
    };
  const existing = config.reset ? null : await openFileStore(config.dataFile);
  if (existing) return { world: makeWorld('default', existing, seedOptions), seeded: false };
  const store = await createFileStore(config.dataFile, await freshDb(seedOptions));
  return { world: makeWorld('default', store, seedOptions), seeded: true };
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
