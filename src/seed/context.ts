import { Faker, en } from '@faker-js/faker';
import type { Db } from '../store/types.js';
import type { SeedProgress } from './progress.js';

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

export { reportSeedProgress, seedProgressReporter, type SeedProgress } from './progress.js';

export function createSeedFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return faker;
}
