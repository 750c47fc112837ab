import { Faker, en } from '@faker-js/faker';
import type { Db } from '../store/types.js';

/** What every seeder gets: the database being built, a seeded faker, and the sandbox start time. */
export interface SeedContext {
  db: Db;
  faker: Faker;
  /** Sandbox start time in ms; seeded timestamps lie before it. */
  now: number;
  seed: number;
  /** How many catalog listings to create. */
  listings: number;
  /**
   * Reports seeding progress: a long seeder (the catalog's listings) calls `progress?.(done, total)`
   * now and then; the CLI draws a bar from it when seeding more than 5000 listings.
   */
  progress?: SeedProgress;
}

export type SeedProgress = (done: number, total: number) => void;

let progressReporter: SeedProgress | undefined;

/** Registers who hears seeding progress (the CLI's bar); `undefined` stops reporting. */
export function reportSeedProgress(reporter: SeedProgress | undefined): void {
  progressReporter = reporter;
}

/** The registered progress reporter, handed to seeders through `SeedContext.progress`. */
export function seedProgressReporter(): SeedProgress | undefined {
  return progressReporter;
}

export function createSeedFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return faker;
}
