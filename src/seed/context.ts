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
}

export function createSeedFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return faker;
}
