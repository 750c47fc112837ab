import type { Config } from '../process/config.js';
import { createFileStore, createMemoryStore, openFileStore } from '../store/store.js';
import type { Db } from '../store/types.js';
import { makeWorld, type SeedOptions, type World } from './world.js';

/**
 * A builder of the seeded database, loaded on demand: the seeders pull in faker, which costs
 * start-up time a sandbox opening an existing data file does not need to pay.
 */
export async function loadSeeder(options: SeedOptions): Promise<(wallMs: number) => Db> {
  const { freshDb: build } = await import('../seed/seed.js');
  return (wallMs) => build(options, wallMs);
}

async function freshDb(options: SeedOptions, wallMs: number = Date.now()): Promise<Db> {
  return (await loadSeeder(options))(wallMs);
}

export function seedOptionsOf(config: Config): SeedOptions {
  return { seed: config.seed, listings: config.listings, clockStart: config.clockStart };
}

/** Opens the default world as configured: memory, an existing file, or a new file from the seed. */
export async function openDefaultWorld(config: Config): Promise<{ world: World; seeded: boolean }> {
  const seedOptions = seedOptionsOf(config);
  const reseed = () => freshDb(seedOptions);
  if (config.inMemory)
    return {
      world: makeWorld('default', createMemoryStore(await freshDb(seedOptions)), seedOptions, reseed),
      seeded: true,
    };
  const existing = config.reset ? null : await openFileStore(config.dataFile);
  if (existing) return { world: makeWorld('default', existing, seedOptions, reseed), seeded: false };
  const store = await createFileStore(config.dataFile, await freshDb(seedOptions));
  return { world: makeWorld('default', store, seedOptions, reseed), seeded: true };
}
