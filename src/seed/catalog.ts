import { loadFixture } from '../fixtures.js';
import { newId } from '../world/ids.js';
import type { CategoryRecord, ListingRecord, ListingType, StoreRecord } from '../store/types.js';
import { referralCodeFor } from '../api/auth/users.js';
import { testAccounts } from './accounts.js';
import { categoryFixture, cityFixture } from './catalog-data.js';
import { generateListings, placeholderPath } from './catalog-listings.js';
import type { SeedContext } from './context.js';

/** Generated sellers, each with one store. They cannot log in (no password). */
export const SEEDED_SELLERS = 25;
/** Stored instead of a password hash: never matches any password. */
export const NO_LOGIN_HASH = '!seeded-seller-without-password';

function seedCategories(ctx: SeedContext): void {
  const records: CategoryRecord[] = [];
  categoryFixture().forEach((cat, i) => {
    records.push({ slug: cat.slug, parent: null, icon: cat.icon, names: cat.name, position: i });
    cat.subcategories.forEach((sub, j) => {
      records.push({ slug: sub.slug, parent: cat.slug, icon: sub.icon, names: sub.name, position: j });
    });
  });
  ctx.db.categories = records;
}

function seedSellers(ctx: SeedContext): StoreRecord[] {
  const { db, faker } = ctx;
  const at = new Date(ctx.now - 90 * 86_400_000).toISOString();
  const stores: StoreRecord[] = [];
  const taken = new Set(Object.values(db.users).map((u) => u.email));
  for (let n = 0; n < SEEDED_SELLERS; n += 1) {
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
    const company = faker.company.name();
    let slug = company
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    if (db.stores[slug]) slug = `${slug}-${n}`;
    const store: StoreRecord = {
      slug,
      store_name: company,
      description: `${faker.company.catchPhrase()}. Run by ${first} ${last}.`,
      owner_id: id,
      created_at: at,
    };
    db.stores[slug] = store;
    stores.push(store);
  }
  return stores;
}

type Spec = [ListingType, string, string, number, number, string?];

/** The test seller's listings: every type, a free one, one with a single item, one in EUR. */
const SELLER_LISTINGS: Spec[] = [
  ['mall', 'Wireless Black Headset', 'audio', 4999, 25],
  ['mall', 'Vintage Leather Wallet', 'bags-accessories', 2500, 1],
  ['classifieds', 'Wooden Chair', 'furniture', 0, 1],
  ['classifieds', 'Classic Red Guitar', 'guitars', 18000, 1, 'EUR'],
  ['auction', 'Antique Silver Clock', 'antiques', 5000, 1],
  ['auction', 'Rare Coin', 'coins-stamps', 1500, 1],
  ['reverse_auction', 'Professional Drone', 'cameras', 80000, 1],
  ['reverse_auction', 'Used Bicycle', 'bicycles', 12000, 3],
];

const PLAN_LISTINGS: [string, string, number][] = [
  ['Premium Golden Watch', 'jewelry-watches', 19900],
  ['Modern Glass Lamp', 'decor', 4500],
  ['Luxury Silk Scarf', 'bags-accessories', 7900],
  ['Handmade Ceramic Vase', 'decor', 3900],
  ['Elegant Wooden Table', 'furniture', 25000],
];

function listingFor(
  ctx: SeedContext,
  owner: string,
  store: string,
  spec: Spec,
  hoursAgo: number,
): ListingRecord {
  const [type, title, wanted, price, qty, currency = 'USD'] = spec;
  const subs = categoryFixture().flatMap((c) => c.subcategories.map((s) => s.slug));
  const category = subs.includes(wanted) ? wanted : subs[hoursAgo % subs.length];
  const city = cityFixture()[hoursAgo % cityFixture().length];
  return {
    id: newId(ctx.db),
    seller_id: owner,
    store_slug: store,
    type,
    title,
    description: 'Item is in excellent condition. Ships within two business days.',
    category,
    price_cents: price,
    currency,
    accepted_currencies: currency === 'USD' ? ['USD', 'Credit-USD'] : [currency, 'USD'],
    quantity_available: qty,
    duration: '1year',
    location_city: city.city,
    location_country: city.country,
    lat: city.lat,
    lng: city.lng,
    images: [placeholderPath(category, hoursAgo % 6)],
    is_featured: false,
    featured_payment_method: null,
    created_at: new Date(ctx.now - hoursAgo * 3_600_000).toISOString(),
  };
}

/** Listings of the test accounts (fixed, whatever the seed); returns how many. */
function seedTestListings(ctx: SeedContext): number {
  const plans = loadFixture<{ id: string; limits: { featuredListings: number } }[]>('plans.json');
  let made = 0;
  let hours = 1;
  const add = (listing: ListingRecord) => {
    ctx.db.listings[listing.id] = listing;
    made += 1;
    hours += 1;
  };
  for (const account of testAccounts()) {
    const user = Object.values(ctx.db.users).find((u) => u.email === account.email);
    if (!user || !account.store) continue;
    const store = account.store.slug;
    if (!account.plan) {
      for (const spec of SELLER_LISTINGS) add(listingFor(ctx, user.id, store, spec, hours));
      continue;
    }
    const limit = plans.find((p) => p.id === account.plan?.plan_id)?.limits.featuredListings ?? 0;
    const inUse = account.plan.featured_in_use === 'all' ? limit : account.plan.featured_in_use;
    for (let k = 0; k <= inUse; k += 1) {
      const [title, category, price] = PLAN_LISTINGS[k % PLAN_LISTINGS.length];
      const listing = listingFor(ctx, user.id, store, ['mall', title, category, price, 5], hours);
      if (k < inUse) {
        listing.is_featured = true;
        listing.featured_payment_method = 'subscription';
      }
      add(listing);
    }
  }
  return made;
}

/**
 * The catalog: categories from the fixture, generated sellers with stores, the test accounts'
 * listings, then generated listings up to `--listings` in total (the test accounts' listings
 * are always there, even when `--listings` is smaller).
 */
export function seedCatalog(ctx: SeedContext): void {
  seedCategories(ctx);
  const stores = seedSellers(ctx);
  const fixed = seedTestListings(ctx);
  generateListings(ctx, stores, Math.max(0, ctx.listings - fixed));
}
