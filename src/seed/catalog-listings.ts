import { newId } from '../ids.js';
import type { Duration, ListingRecord, ListingType, StoreRecord } from '../store/types.js';
import { lexicon } from '../api/catalog/lexicon.js';
import { canonicalCurrency, toUsdCents } from '../api/catalog/currencies.js';
import { DURATION_MS } from '../api/listings/search-index.js';
import {
  ADJECTIVES,
  categoryFixture,
  cityFixture,
  COLORS,
  MATERIALS,
  prng,
  titleCase,
} from './catalog-data.js';
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
  const perUsd = usdCents / toUsdCents(usdCents, currency);
  return Math.max(1, Math.round(usdCents * perUsd));
}

function acceptedFor(currency: string, r: number): string[] {
  if (currency !== 'USD') return [currency, 'USD'];
  if (r < 0.6) return ['USD'];
  if (r < 0.9) return ['USD', 'Credit-USD'];
  return ['USD', 'EUR', 'Credit-USD'];
}

/**
 * Generates `count` catalog listings across every category, type, currency and duration, spread
 * over the 30 days before the sandbox start; about 85% are still active at the start.
 */
export function generateListings(ctx: SeedContext, stores: StoreRecord[], count: number): void {
  const vocab = lexicon().vocabulary;
  const known = (list: string[]) => list.filter((w) => vocab[w] !== undefined);
  const adjectives = known(ADJECTIVES);
  const colors = known(COLORS);
  const materials = known(MATERIALS);
  const subs = categoryFixture().flatMap((c) => c.subcategories);
  const cities = cityFixture();
  const phraseCount = lexicon().phrases.length;
  const rand = prng(ctx.seed ^ 0x5eed1157);
  const any = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  for (let n = 0; n < count; n += 1) {
    const sub = any(subs);
    const noun = any(sub.nouns);
    const shape = rand();
    const words =
      shape < 0.35
        ? [any(adjectives), any(colors), noun]
        : shape < 0.6
          ? [any(adjectives), any(materials), noun]
          : shape < 0.8
            ? [any(colors), any(materials), noun]
            : [any(adjectives), noun];
    const type = pick(TYPE_MIX, rand());
    const currency = canonicalCurrency(pick(CURRENCY_MIX, rand())) ?? 'USD';
    const free = type !== 'auction' && rand() < 0.04;
    const usdCents = free ? 0 : Math.round(Math.exp(rand() * Math.log(2000)) * 100);
    const duration = pick(DURATION_MIX, rand());
    const window = Math.min(DURATION_MS[duration], 30 * DAY);
    const age = rand() < 0.85 ? rand() * window : rand() * 30 * DAY;
    const city = any(cities);
    const p1 = Math.floor(rand() * phraseCount);
    const p2 = (p1 + 1 + Math.floor(rand() * (phraseCount - 1))) % phraseCount;
    const store = any(stores);
    const featured = rand() < 0.04;
    const qty =
      type === 'auction'
        ? 1
        : rand() < 0.3
          ? 1
          : rand() < 0.75
            ? 2 + Math.floor(rand() * 9)
            : 11 + Math.floor(rand() * 90);
    const imageCount = 1 + Math.floor(rand() * 3);
    const firstImage = Math.floor(rand() * 6);
    const listing: ListingRecord = {
      id: newId(ctx.db),
      seller_id: store.owner_id,
      store_slug: store.slug,
      type,
      title: titleCase(words.join(' ')),
      description: phraseCount > 1 ? `${lexicon().phrases[p1].en} ${lexicon().phrases[p2].en}` : null,
      category: sub.slug,
      price_cents: priceIn(currency, usdCents),
      currency,
      accepted_currencies: acceptedFor(currency, rand()),
      quantity_available: qty,
      duration,
      location_city: city.city,
      location_country: city.country,
      lat: Math.round((city.lat + (rand() - 0.5) * 0.1) * 10_000) / 10_000,
      lng: Math.round((city.lng + (rand() - 0.5) * 0.1) * 10_000) / 10_000,
      images: Array.from({ length: imageCount }, (_, k) => placeholderPath(sub.slug, (firstImage + k) % 6)),
      is_featured: featured,
      featured_payment_method: featured ? (rand() < 0.5 ? 'payprovider' : 'credit_wallet') : null,
      created_at: new Date(Math.floor((ctx.now - age) / 1000) * 1000).toISOString(),
    };
    ctx.db.listings[listing.id] = listing;
  }
}
