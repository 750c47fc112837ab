import { loadFixture } from '../fixtures.js';
import { newId } from '../world/ids.js';
import { catalogFixture, type ItemTemplate } from '../i18n/catalog-fixture.js';
import { VARIANT_ORDER } from '../i18n/text-ref.js';
import type { ListingRecord, ListingType } from '../store/types.js';
import { testAccounts } from './accounts.js';
import { cityFixture } from './catalog-data.js';
import type { SeedContext } from './context.js';
import { itemText, placeholderPath } from './item-draw.js';
import { priceRange, stockCap } from './condition.js';
import { acceptedFor, displayCents, referenceRates } from './pricing.js';

/** What a test account's listing is: the type, where its item is looked for, and what is fixed about it. */
interface Pick {
  type: ListingType;
  subcategory: string;
  /** Preferred items: an English title matching this. */
  like?: RegExp;
  /** A giveaway (a template priced 0). */
  free?: boolean;
  currency?: string;
  quantity?: number;
  city?: string;
}

/**
 * The test seller's listings: two of each type, among them a giveaway, single items and one in
 * EUR: a leather jacket in Berlin (what the search examples in openapi.yaml and the README find),
 * and a child's bicycle in Berlin (what the assistant's "Ich suche ein Fahrrad in Berlin" finds).
 */
const SELLER: Pick[] = [
  { type: 'mall', subcategory: 'audio', like: /head(phone|set)/i, quantity: 25 },
  {
    type: 'mall',
    subcategory: 'mens-clothing',
    like: /leather.*jacket/i,
    currency: 'EUR',
    quantity: 3,
    city: 'Berlin',
  },
  { type: 'classifieds', subcategory: 'furniture', free: true },
  { type: 'classifieds', subcategory: 'bicycles', like: /kids.*bike/i, city: 'Berlin' },
  { type: 'auction', subcategory: 'antiques', like: /clock/i },
  { type: 'auction', subcategory: 'coins-stamps' },
  { type: 'reverse_auction', subcategory: 'cameras', like: /drone/i },
  { type: 'reverse_auction', subcategory: 'guitars', like: /guitar/i },
];

/** The subscribers' shop listings, taken in turn (featured ones first): among them a lamp (`q=lamp`). */
const PLAN: Pick[] = [
  { type: 'mall', subcategory: 'jewelry-watches', like: /watch/i },
  { type: 'mall', subcategory: 'decor', like: /lamp/i },
  { type: 'mall', subcategory: 'bags-accessories', like: /scarf/i },
  { type: 'mall', subcategory: 'decor', like: /vase/i },
  { type: 'mall', subcategory: 'furniture', like: /table/i },
  { type: 'mall', subcategory: 'kitchen', like: /kettle|pan/i },
  { type: 'mall', subcategory: 'decor', like: /rug|mirror/i },
  { type: 'mall', subcategory: 'furniture', like: /chair/i },
];

/**
 * The template for a pick, the same whatever the seed: a liked one of the subcategory that allows
 * the type, else the first that does, else any template that does; never one used already. A
 * free pick takes a giveaway (a template priced 0) when there is one.
 */
function templateFor(pick: Pick, used: Set<string>): ItemTemplate | undefined {
  const fits = (t: ItemTemplate) => t.types.includes(pick.type) && !used.has(t.id);
  const all = catalogFixture().templates.filter(fits);
  // A giveaway where the catalogue has one, else an ordinary classifieds item given away.
  const giveaway = pick.free ? all.find((t) => t.price_usd[1] === 0) : undefined;
  if (giveaway) return giveaway;
  const own = all.filter((t) => t.subcategory === pick.subcategory);
  const liked = (list: ItemTemplate[]) => list.find((t) => pick.like?.test(t.text.en.title));
  return liked(own) ?? own[0] ?? liked(all) ?? all[0];
}

/** The first value of the template's first attribute in title order: one variant, fixed. */
function firstVariant(t: ItemTemplate): [string, string][] {
  const attribute = VARIANT_ORDER.find((a) => (t.attributes?.[a]?.length ?? 0) > 0);
  return attribute ? [[attribute, (t.attributes?.[attribute] ?? [])[0]]] : [];
}

function listingFor(
  ctx: SeedContext,
  owner: { id: string; store: string },
  pick: Pick,
  t: ItemTemplate,
  hoursAgo: number,
): ListingRecord {
  const cities = cityFixture();
  const city = cities.find((c) => c.city === pick.city) ?? cities[hoursAgo % cities.length];
  const currency = pick.currency ?? 'USD';
  const variants = firstVariant(t);
  const [lo, hi] = priceRange(t, variants);
  const usd = pick.free ? 0 : Math.sqrt(Math.max(lo, 1) * hi);
  const text = itemText(t, variants, pick.type);
  return {
    id: newId(ctx.db),
    seller_id: owner.id,
    store_slug: owner.store,
    type: pick.type,
    title: text.title,
    description: text.description,
    category: t.subcategory,
    price_cents: displayCents(usd, currency, pick.type, referenceRates()),
    currency,
    accepted_currencies: currency === 'USD' ? acceptedFor('USD', 0.7) : acceptedFor(currency, 0),
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
 * Listings of the test accounts, from item templates and fixed whatever the seed: the seller's
 * eight, and each subscriber's featured listings (by subscription, as many as the account's
 * fixture says) plus one plain listing. Returns how many.
 */
export function seedTestListings(ctx: SeedContext): number {
  const plans = loadFixture<{ id: string; limits: { featuredListings: number } }[]>('plans.json');
  const used = new Set<string>();
  let hours = 1;
  let next = 0;
  const add = (owner: { id: string; store: string }, pick: Pick, featured = false) => {
    const t = templateFor(pick, used);
    if (!t) return;
    used.add(t.id);
    const listing = listingFor(ctx, owner, pick, t, hours);
    if (featured) Object.assign(listing, { is_featured: true, featured_payment_method: 'subscription' });
    ctx.db.listings[listing.id] = listing;
    hours += 1;
  };
  for (const account of testAccounts()) {
    const user = Object.values(ctx.db.users).find((u) => u.email === account.email);
    if (!user || !account.store) continue;
    const owner = { id: user.id, store: account.store.slug };
    if (!account.plan) {
      for (const pick of SELLER) add(owner, pick);
      continue;
    }
    const limit = plans.find((p) => p.id === account.plan?.plan_id)?.limits.featuredListings ?? 0;
    const inUse = account.plan.featured_in_use === 'all' ? limit : account.plan.featured_in_use;
    for (let k = 0; k <= inUse; k += 1) add(owner, PLAN[next++ % PLAN.length], k < inUse);
  }
  return hours - 1;
}
