import { newId } from '../world/ids.js';
import { ListingInterner } from '../store/intern.js';
import type { Duration, ListingRecord, ListingType } from '../store/types.js';
import type { ItemTemplate } from '../i18n/catalog-fixture.js';
import { DURATION_MS } from '../api/listings/listing-state.js';
import { Draw, prng } from './catalog-data.js';
import type { SeedContext } from './context.js';
import { drawItem } from './item-draw.js';
import type { Pools } from './pools.js';
import { TitleDeck } from './template-deck.js';
import { uniqueFirstPages } from './unique-titles.js';

const DAY = 86_400_000;

/** How often each listing type is drawn, among the types a template allows. */
const TYPE_WEIGHT: Record<ListingType, number> = {
  mall: 0.4,
  classifieds: 0.35,
  auction: 0.15,
  reverse_auction: 0.1,
};
const DURATION_MIX: [Duration, number][] = [
  ['1day', 0.2],
  ['2weeks', 0.45],
  ['1year', 0.35],
];
/** A classifieds listing or an auction comes from a shop this often (when a shop sells its kind), else from a person. */
const SHOP_SHARE = 0.4;

/** A type the template allows; `mall` only where a shop sells the template's subcategory. */
function drawType(d: Draw, template: ItemTemplate, p: Pools): ListingType {
  const shop = (p.storesBySub.get(template.subcategory) ?? []).length > 0;
  const allowed = template.types.filter((t) => t !== 'mall' || shop);
  if (allowed.length === 0) return 'classifieds';
  return d.weighted(allowed.map((t) => [t, TYPE_WEIGHT[t]] as const));
}

/** Who sells: a shop of the subcategory (always for `mall`), else a private person in any city. */
function drawSeller(d: Draw, template: ItemTemplate, type: ListingType, p: Pools) {
  const stores = p.storesBySub.get(template.subcategory) ?? [];
  const shop =
    stores.length > 0 && (type === 'mall' || (type !== 'reverse_auction' && d.rand() < SHOP_SHARE));
  if (shop) {
    const store = d.any(stores);
    return { seller_id: store.record.owner_id, store_slug: store.record.slug, city: store.city };
  }
  return { seller_id: d.any(p.people), store_slug: null, city: d.any(p.cities) };
}

/** `created_at`: 85% within the listing's active window (still shown at the start), else any time in 30 days. */
function drawCreatedAt(d: Draw, now: number, duration: Duration): string {
  const window = Math.min(DURATION_MS[duration], 30 * DAY);
  const age = d.rand() < 0.85 ? d.rand() * window : d.rand() * 30 * DAY;
  return new Date(Math.floor((now - age) / 1000) * 1000).toISOString();
}

function drawListing(ctx: SeedContext, d: Draw, p: Pools, deck: TitleDeck): ListingRecord {
  const { template, type, variants } = deck.pick((t) => drawType(d, t, p));
  const seller = drawSeller(d, template, type, p);
  const item = drawItem(d, template, type, seller.city.country, p.rates, variants);
  const duration = d.weighted(DURATION_MIX);
  const featured = d.rand() < 0.04;
  return {
    id: newId(ctx.db),
    seller_id: seller.seller_id,
    store_slug: seller.store_slug,
    type,
    title: item.title,
    description: item.description,
    category: template.subcategory,
    price_cents: item.price_cents,
    currency: item.currency,
    accepted_currencies: item.accepted_currencies,
    quantity_available: item.quantity_available,
    duration,
    location_city: seller.city.city,
    location_country: seller.city.country,
    lat: Math.round((seller.city.lat + (d.rand() - 0.5) * 0.1) * 10_000) / 10_000,
    lng: Math.round((seller.city.lng + (d.rand() - 0.5) * 0.1) * 10_000) / 10_000,
    images: item.images,
    is_featured: featured,
    featured_payment_method: featured ? (d.rand() < 0.5 ? 'payprovider' : 'credit_wallet') : null,
    created_at: drawCreatedAt(d, ctx.now, duration),
    text_ref: item.text_ref,
  };
}

/**
 * Generates `count` listings drawn from the item templates, dealt so that titles repeat only when
 * the templates and their variants run out (template-deck.ts), spread over the 30 days before the
 * sandbox start (about 85% still active then), then makes the titles on the first pages of the
 * default search unique in every language (unique-titles.ts).
 */
export function generateListings(ctx: SeedContext, pools: Pools, count: number): void {
  if (pools.templates.length === 0) return;
  const d = new Draw(prng(ctx.seed ^ 0x5eed1157));
  const interner = new ListingInterner();
  const fixed = new Set(Object.keys(ctx.db.listings));
  const deck = new TitleDeck(d, pools.templates, Object.values(ctx.db.listings));
  for (let n = 0; n < count; n += 1) {
    const listing = interner.listing(drawListing(ctx, d, pools, deck));
    ctx.db.listings[listing.id] = listing;
    if ((n + 1) % 1000 === 0 || n + 1 === count) ctx.progress?.(n + 1, count);
  }
  uniqueFirstPages(ctx, pools, { draw: new Draw(prng(ctx.seed ^ 0x0e1e7e5)), fixed, interner });
}
