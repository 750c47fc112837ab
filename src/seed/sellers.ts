import { loadFixture } from '../fixtures.js';
import { newId } from '../world/ids.js';
import type { StoreRecord } from '../store/types.js';
import { referralCodeFor } from '../api/auth/users.js';
import { cityFixture, type CityFixture } from './catalog-data.js';
import type { SeedContext } from './context.js';

/** A curated shop of `fixtures/catalog/stores.json`: it sells only in its subcategories. */
export interface StoreFixture {
  slug: string;
  store_name: string;
  category: string;
  subcategories: string[];
  city: string;
  description: string;
}

/** A seeded shop with what its listings need: what it sells and where it is. */
export interface SeededStore {
  record: StoreRecord;
  subcategories: string[];
  city: CityFixture;
}

/** Private sellers: people who post classifieds, auctions and wanted ads without a shop. */
export const PRIVATE_SELLERS = 40;
/** Stored instead of a password hash: never matches any password. */
export const NO_LOGIN_HASH = '!seeded-seller-without-password';

export const storeFixture = (): StoreFixture[] =>
  loadFixture<{ stores: StoreFixture[] }>('catalog/stores.json').stores;

/** A seeded person (faker name, `@example.com`, cannot log in); returns the user id. */
function seedPerson(ctx: SeedContext, taken: Set<string>, n: number, at: string): string {
  const { db, faker } = ctx;
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  let email = `${first}.${last}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, '');
  if (taken.has(email)) email = email.replace('@', `${n}@`);
  taken.add(email);
  const id = newId(db);
  db.users[id] = {
    id,
    email,
    password_hash: NO_LOGIN_HASH,
    full_name: `${first} ${last}`,
    referral_code: referralCodeFor(ctx.seed, email),
    referred_by: null,
    balance_cents: 0,
    created_at: at,
  };
  return id;
}

/**
 * The curated shops, each run by a seeded person, and the private sellers. Returns the shops and
 * the private sellers' user ids.
 */
export function seedSellers(ctx: SeedContext): { stores: SeededStore[]; people: string[] } {
  const at = new Date(ctx.now - 90 * 86_400_000).toISOString();
  const taken = new Set(Object.values(ctx.db.users).map((u) => u.email));
  const cities = cityFixture();
  const stores = storeFixture().map((s, n) => {
    const record: StoreRecord = {
      slug: s.slug,
      store_name: s.store_name,
      description: s.description,
      owner_id: seedPerson(ctx, taken, n, at),
      created_at: at,
    };
    ctx.db.stores[s.slug] = record;
    const city = cities.find((c) => c.city === s.city) ?? cities[0];
    return { record, subcategories: s.subcategories, city };
  });
  const people = Array.from({ length: PRIVATE_SELLERS }, (_, n) =>
    seedPerson(ctx, taken, stores.length + n, at),
  );
  return { stores, people };
}
