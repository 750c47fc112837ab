import { newId } from '../world/ids.js';
import { ListingInterner } from '../store/intern.js';
import type { Duration, ListingRecord, ListingType, StoreRecord } from '../store/types.js';
import { lexicon } from '../i18n/lexicon.js';
import { canonicalCurrency, referenceUsdCents } from '../api/wallet/currencies.js';
import { DURATION_MS } from '../api/listings/listing-state.js';
import {
  ADJECTIVES,
  categoryFixture,
  cityFixture,
  COLORS,
  MATERIALS,
  prng,
  titleCase,
} from './catalog-data.js';
import type { CategoryFixture, CityFixture } from './catalog-data.js';
import type { SeedContext } from './context.js';

const DAY = 86_400_000;

/** Display currencies with their share (mostly USD) and how many units make one USD. */
const CURRENCY_MIX: [string, number][] = [
  ['USD', 0.7],
  ['EUR', 0.1],
  ['JPY', 0.06],
  ['BTC', 0.03],
  ['Credit-USD', 0.05],
  ['Credit-EUR', 0.03],
  ['GBP', 0.03],
];
const TYPE_MIX: [ListingType, number][] = [
  ['mall', 0.4],
  ['classifieds', 0.35],
  ['auction', 0.15],
  ['reverse_auction', 0.1],
];
const DURATION_MIX: [Duration, number][] = [
  ['1day', 0.2],
  ['2weeks', 0.45],
  ['1year', 0.35],
];

function pick<T>(mix: [T, number][], r: number): T {
  let acc = 0;
  for (const [value, share] of mix) {
    acc += share;
    if (r < acc) return value;
  }
  return mix[mix.length - 1][0];
}

/** The image path of a deterministic placeholder (served by GET /uploads/{name}). */
export const placeholderPath = (category: string, variant: number): string =>
  `/uploads/seed-${category}-${variant}.png`;

/** Price in the display currency's cents for a USD value (at least 1 unit of the smallest step). */
function priceIn(currency: string, usdCents: number): number {
  if (usdCents === 0) return 0;
  const perUsd = usdCents / referenceUsdCents(usdCents, currency);
  return Math.max(1, Math.round(usdCents * perUsd));
}

function acceptedFor(currency: string, r: number): string[] {
  if (currency !== 'USD') return [currency, 'USD'];
  if (r < 0.6) return ['USD'];
  if (r < 0.9) return ['USD', 'Credit-USD'];
  return ['USD', 'EUR', 'Credit-USD'];
}

/** What every drawn listing picks from. */
interface Pools {
  adjectives: string[];
  colors: string[];
  materials: string[];
  subs: CategoryFixture['subcategories'];
  cities: CityFixture[];
  phrases: string[];
  stores: StoreRecord[];
}

/** A seeded source of choices. */
class Draw {
  constructor(readonly rand: () => number) {}
  any<T>(list: T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }
}

function drawTitle(d: Draw, p: Pools, noun: string): string {
  const shape = d.rand();
  const words =
    shape < 0.35
      ? [d.any(p.adjectives), d.any(p.colors), noun]
      : shape < 0.6
        ? [d.any(p.adjectives), d.any(p.materials), noun]
        : shape < 0.8
          ? [d.any(p.colors), d.any(p.materials), noun]
          : [d.any(p.adjectives), noun];
  return titleCase(words.join(' '));
}

function drawDescription(d: Draw, phrases: string[]): string | null {
  if (phrases.length < 2) return null;
  const first = d.int(0, phrases.length - 1);
  const second = (first + d.int(1, phrases.length - 1)) % phrases.length;
  return `${phrases[first]} ${phrases[second]}`;
}

function drawQuantity(d: Draw, type: ListingType): number {
  if (type === 'auction' || d.rand() < 0.3) return 1;
  return d.rand() < 0.75 ? d.int(2, 10) : d.int(11, 100);
}

/** `created_at`: 85% within the listing's active window (still shown at the start), else any time in 30 days. */
function drawCreatedAt(d: Draw, now: number, duration: Duration): string {
  const window = Math.min(DURATION_MS[duration], 30 * DAY);
  const age = d.rand() < 0.85 ? d.rand() * window : d.rand() * 30 * DAY;
  return new Date(Math.floor((now - age) / 1000) * 1000).toISOString();
}

function drawListing(ctx: SeedContext, d: Draw, p: Pools): ListingRecord {
  const sub = d.any(p.subs);
  const type = pick(TYPE_MIX, d.rand());
  const currency = canonicalCurrency(pick(CURRENCY_MIX, d.rand())) ?? 'USD';
  const free = type !== 'auction' && d.rand() < 0.04;
  // Crypto cents are large units (0.01 BTC): crypto-priced items are the dearer ones.
  const scale = currency === 'BTC' ? 50 : 1;
  const usdCents = free ? 0 : Math.round(Math.exp(d.rand() * Math.log(2000)) * 100 * scale);
  const duration = pick(DURATION_MIX, d.rand());
  const city = d.any(p.cities);
  const store = d.any(p.stores);
  const featured = d.rand() < 0.04;
  const image = d.int(0, 5);
  return {
    id: newId(ctx.db),
    seller_id: store.owner_id,
    store_slug: store.slug,
    type,
    title: drawTitle(d, p, d.any(sub.nouns)),
    description: drawDescription(d, p.phrases),
    category: sub.slug,
    price_cents: priceIn(currency, usdCents),
    currency,
    accepted_currencies: acceptedFor(currency, d.rand()),
    quantity_available: drawQuantity(d, type),
    duration,
    location_city: city.city,
    location_country: city.country,
    lat: Math.round((city.lat + (d.rand() - 0.5) * 0.1) * 10_000) / 10_000,
    lng: Math.round((city.lng + (d.rand() - 0.5) * 0.1) * 10_000) / 10_000,
    images:
      d.rand() < 0.3
        ? [placeholderPath(sub.slug, image), placeholderPath(sub.slug, (image + 1) % 6)]
        : [placeholderPath(sub.slug, image)],
    is_featured: featured,
    featured_payment_method: featured ? (d.rand() < 0.5 ? 'payprovider' : 'credit_wallet') : null,
    created_at: drawCreatedAt(d, ctx.now, duration),
  };
}

/**
 * Generates `count` catalog listings across every category, type, currency and duration, spread
 * over the 30 days before the sandbox start; about 85% are still active at the start.
 */
export function generateListings(ctx: SeedContext, stores: StoreRecord[], count: number): void {
  const vocab = lexicon().vocabulary;
  const known = (list: string[]) => list.filter((w) => vocab[w] !== undefined);
  const pools: Pools = {
    adjectives: known(ADJECTIVES),
    colors: known(COLORS),
    materials: known(MATERIALS),
    subs: categoryFixture().flatMap((c) => c.subcategories),
    cities: cityFixture(),
    phrases: lexicon().phrases.map((phrase) => phrase.en),
    stores,
  };
  const d = new Draw(prng(ctx.seed ^ 0x5eed1157));
  const interner = new ListingInterner();
  for (let n = 0; n < count; n += 1) {
    const listing = interner.listing(drawListing(ctx, d, pools));
    ctx.db.listings[listing.id] = listing;
    if ((n + 1) % 1000 === 0 || n + 1 === count) ctx.progress?.(n + 1, count);
  }
}
