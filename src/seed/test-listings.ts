import { loadFixture } from '../fixtures.js';
import { newId } from '../world/ids.js';
import { catalogFixture, type ItemTemplate } from '../i18n/catalog-fixture.js';
import { VARIANT_ORDER } from '../i18n/text-ref.js';
import type { ListingRecord, ListingType } from '../store/types.js';
import { testAccounts } from './accounts.js';
import { cityFixture, type CityFixture } from './catalog-data.js';
import type { SeedContext } from './context.js';
import { itemText, placeholderPath } from './item-draw.js';
import { priceRange, stockCap } from './condition.js';
import { acceptedFor, displayCents, referenceRates } from './pricing.js';

/** One listing of a test account's shop: its type and item template, and what is fixed about it. */
interface Pick {
  type: ListingType;
  template: string;
  /** Stock of a shop's (`mall`) listing, within the template's range. */
  quantity?: number;
}

/** A test account's shop: one category, sold from one city in its money, like the curated shops. */
export interface TestShop {
  /** The top-level category its listings are in. */
  category: string;
  city: string;
  currency: string;
  /** Its listings, newest first; a subscriber's first ones are featured (as many as its plan uses). */
  listings: Pick[];
}

/**
 * The test accounts' shops, by account key (fixtures/test-accounts.json names each store). The
 * seller's leather and vintage shop in Berlin has two listings of each type, among them a giveaway
 * and single items, and a men's leather jacket priced in EUR (what the search examples of
 * openapi.yaml and the README find; its id is the examples' `b47dfaa3-…`, the belt's `6bdaf0d3-…`).
 * The subscribers sell lamps in Amsterdam (`q=lamp`) and cookware in Utrecht.
 */
export const TEST_SHOPS: Record<string, TestShop> = {
  seller: {
    category: 'fashion',
    city: 'Berlin',
    currency: 'EUR',
    listings: [
      { type: 'mall', template: 'mens-full-grain-leather-belt', quantity: 25 },
      { type: 'mall', template: 'mens-leather-biker-jacket', quantity: 3 },
      { type: 'classifieds', template: 'bag-of-womens-clothes-free' },
      { type: 'classifieds', template: 'small-leather-crossbody-bag' },
      { type: 'auction', template: 'louis-vuitton-neverfull-mm' },
      { type: 'auction', template: 'dr-martens-1460-boots' },
      { type: 'reverse_auction', template: 'levis-501-original-womens-jeans' },
      { type: 'reverse_auction', template: 'barbour-bedale-waxed-jacket' },
    ],
  },
  subscriber: {
    category: 'home-garden',
    city: 'Amsterdam',
    currency: 'EUR',
    listings: [
      { type: 'mall', template: 'arc-floor-lamp-marble-base' },
      { type: 'mall', template: 'ceramic-bedside-lamp-linen-shade' },
      { type: 'mall', template: 'swing-arm-desk-lamp', quantity: 12 },
    ],
  },
  maxed: {
    category: 'home-garden',
    city: 'Utrecht',
    currency: 'EUR',
    listings: [
      { type: 'mall', template: 'le-creuset-round-casserole-24', quantity: 4 },
      { type: 'mall', template: 'global-g2-chefs-knife' },
      { type: 'mall', template: 'lodge-cast-iron-skillet-30' },
      { type: 'mall', template: 'stainless-steel-electric-kettle', quantity: 10 },
    ],
  },
};

/** The first value of the template's first attribute in title order: one variant, fixed. */
function firstVariant(t: ItemTemplate): [string, string][] {
  const attribute = VARIANT_ORDER.find((a) => (t.attributes?.[a]?.length ?? 0) > 0);
  return attribute ? [[attribute, (t.attributes?.[attribute] ?? [])[0]]] : [];
}

/** The template of a pick; a fixture that lost it, or no longer allows its type, stops the seed. */
function templateOf(pick: Pick): ItemTemplate {
  const t = catalogFixture().byId.get(pick.template);
  if (!t?.types.includes(pick.type))
    throw new Error(`test account listing: no template ${pick.template} that may be ${pick.type}`);
  return t;
}

function listingFor(
  ctx: SeedContext,
  owner: { id: string; store: string; shop: TestShop; city: CityFixture },
  pick: Pick,
  hoursAgo: number,
): ListingRecord {
  const t = templateOf(pick);
  const { city, shop } = owner;
  const variants = firstVariant(t);
  const [lo, hi] = priceRange(t, variants);
  // The middle of its range on the scale prices are drawn on (0 for a giveaway).
  const usd = hi <= 0 ? 0 : Math.sqrt(Math.max(lo, 1) * hi);
  const text = itemText(t, variants, pick.type);
  return {
    id: newId(ctx.db),
    seller_id: owner.id,
    store_slug: owner.store,
    type: pick.type,
    title: text.title,
    description: text.description,
    category: t.subcategory,
    price_cents: displayCents(usd, shop.currency, pick.type, referenceRates()),
    currency: shop.currency,
    accepted_currencies: acceptedFor(shop.currency, shop.currency === 'USD' ? 0.7 : 0),
    quantity_available:
      pick.type === 'mall'
        ? Math.min(Math.max(pick.quantity ?? 5, t.quantity[0]), t.quantity[1], stockCap(variants))
        : 1,
    duration: '1year',
    location_city: city.city,
    location_country: city.country,
    lat: city.lat,
    lng: city.lng,
    images: [placeholderPath(t.id, 1)],
    is_featured: false,
    featured_payment_method: null,
    created_at: new Date(ctx.now - hoursAgo * 3_600_000).toISOString(),
    text_ref: text.text_ref,
  };
}

/**
 * Listings of the test accounts' shops ({@link TEST_SHOPS}), fixed whatever the seed: the seller's
 * eight, and each subscriber's featured listings (by subscription, as many as the account's
 * fixture says) plus one plain listing. Returns how many.
 */
export function seedTestListings(ctx: SeedContext): number {
  const plans = loadFixture<{ id: string; limits: { featuredListings: number } }[]>('plans.json');
  const cities = cityFixture();
  let hours = 1;
  for (const account of testAccounts()) {
    const user = Object.values(ctx.db.users).find((u) => u.email === account.email);
    const shop = TEST_SHOPS[account.key];
    if (!user || !account.store || !shop) continue;
    const city = cities.find((c) => c.city === shop.city) ?? cities[0];
    const owner = { id: user.id, store: account.store.slug, shop, city };
    const limit = plans.find((p) => p.id === account.plan?.plan_id)?.limits.featuredListings ?? 0;
    const featured = account.plan?.featured_in_use === 'all' ? limit : (account.plan?.featured_in_use ?? 0);
    const count = account.plan ? featured + 1 : shop.listings.length;
    for (let k = 0; k < count; k += 1) {
      const listing = listingFor(ctx, owner, shop.listings[k % shop.listings.length], hours);
      if (k < featured)
        Object.assign(listing, { is_featured: true, featured_payment_method: 'subscription' });
      ctx.db.listings[listing.id] = listing;
      hours += 1;
    }
  }
  return hours - 1;
}
