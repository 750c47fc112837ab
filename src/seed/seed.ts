import { emptyDb, type Db } from '../store/types.js';
import { createSeedFaker, seedProgressReporter, type SeedContext } from './context.js';
import { seedTestAccounts } from './accounts.js';
import { seedTestSubscriptions } from './subscriptions.js';
import { seedCatalog } from './catalog.js';
import { shiftSeed } from './shift.js';
import type { SeedOptions } from '../world/world.js';
import { forgetIdSpace, seedIdSpace } from '../world/ids.js';

export type { SeedOptions };

/**
 * The instant a seed is built at when `--clock-start` does not pin one; each copy is then moved
 * to the wall time (shift.ts), so every unpinned world holds the same catalogue, only later.
 */
export const SEED_ANCHOR = '2026-01-01T00:00:00.000Z';

/**
 * Where a new world's clock starts: the pinned `clockStart`, else the wall time (whole seconds, so
 * seeded instants stay whole seconds as a build at that time would write them).
 */
export function seedStart(options: SeedOptions, wallMs: number): number {
  return options.clockStart ? Date.parse(options.clockStart) : Math.floor(wallMs / 1000) * 1000;
}

/** Seeders run in this order; each adds its part of the world. */
const seeders: ((ctx: SeedContext) => void)[] = [seedTestAccounts, seedTestSubscriptions, seedCatalog];

/** Builds a fresh world database at `options.clockStart`. Same options, byte-identical result. */
export function buildSeed(options: SeedOptions): Db {
  const db = emptyDb(options.seed, { now: options.clockStart, frozen: false });
  const ctx: SeedContext = {
    db,
    faker: createSeedFaker(options.seed),
    now: Date.parse(options.clockStart),
    seed: options.seed,
    listings: options.listings,
    progress: seedProgressReporter(),
  };
  seedIdSpace(db);
  for (const seeder of seeders) seeder(ctx);
  forgetIdSpace(db);
  db.meta.listings = Object.keys(db.listings).length;
  db.meta.seeded_at = new Date(ctx.now).toISOString();
  return db;
}

const images = new Map<string, string>();

/** Above this many listings no seed image is kept: every copy is built anew. */
const LARGE_SEED_LISTINGS = 20_000;

/**
 * A fresh copy of the seeded database, its clock at {@link seedStart} as of wall time `wallMs`
 * (world.ts `continuedClock` goes on from there after a restart). A small seed is built once
 * per process and options, then kept as JSON text: a reset or a new world is a JSON.parse (and,
 * unpinned, a move in time), not a reseed. A large seed is built anew for every copy
 * (deterministic, so the same data): its image would be tens of MB of text held for the life of
 * the process, a large share of the memory budget (docs/hardening.md, Memory, has the figures),
 * to make a rare reset faster. The first copy is the built object itself.
 */
export function freshDb(options: SeedOptions, wallMs: number): Db {
  const built = { ...options, clockStart: options.clockStart || SEED_ANCHOR };
  const db = shiftSeed(seedImage(built), seedStart(options, wallMs) - Date.parse(built.clockStart));
  // Recorded now, not at the first write, so a sandbox restarted before any write goes on from
  // here too; not for a pinned start, whose seed stays byte-identical (it restarts where pinned).
  if (!options.clockStart) db.meta.clock_recorded_at = new Date(wallMs).toISOString();
  return db;
}

function seedImage(options: SeedOptions): Db {
  if (options.listings > LARGE_SEED_LISTINGS) return buildSeed(options);
  const key = `${options.seed}:${options.listings}:${options.clockStart}`;
  const image = images.get(key);
  if (image !== undefined) return JSON.parse(image) as Db;
  const db = buildSeed(options);
  images.set(key, JSON.stringify(db));
  return db;
}
