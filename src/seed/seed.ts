import { emptyDb, type Db } from '../store/types.js';
import { createSeedFaker, type SeedContext } from './context.js';
import { seedTestAccounts } from './accounts.js';
import { seedTestSubscriptions } from './subscriptions.js';

export interface SeedOptions {
  seed: number;
  listings: number;
  clockStart: string;
}

/** Seeders run in this order; each adds its part of the world. */
const seeders: ((ctx: SeedContext) => void)[] = [seedTestAccounts, seedTestSubscriptions];

/** Builds a fresh world database. Same options, byte-identical result. */
export function buildSeed(options: SeedOptions): Db {
  const db = emptyDb(options.seed, { now: options.clockStart, frozen: false });
  const ctx: SeedContext = {
    db,
    faker: createSeedFaker(options.seed),
    now: Date.parse(options.clockStart),
    seed: options.seed,
    listings: options.listings,
  };
  for (const seeder of seeders) seeder(ctx);
  db.meta.listings = Object.keys(db.listings).length;
  return db;
}

const images = new Map<string, string>();

/**
 * A fresh copy of the seeded database. The seed is built once per process and options, then
 * kept as JSON text: a reset or a new world is a JSON.parse, not a reseed.
 */
export function freshDb(options: SeedOptions): Db {
  const key = `${options.seed}:${options.listings}:${options.clockStart}`;
  let image = images.get(key);
  if (image === undefined) {
    image = JSON.stringify(buildSeed(options));
    images.set(key, image);
  }
  return JSON.parse(image) as Db;
}
