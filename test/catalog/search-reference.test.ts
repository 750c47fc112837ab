import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listingTerm, seedStartOf } from '../../src/api/listings/listing-state.js';
import {
  distanceKm,
  runSearch,
  SORTS,
  textMatches,
  type SearchQuery,
} from '../../src/api/listings/search.js';
import { toUsdCents } from '../../src/api/wallet/convert.js';
import { ratesNow } from '../../src/api/wallet/rates.js';
import { listingTitle } from '../../src/i18n/listing-text.js';
import { wordsIn } from '../../src/i18n/text.js';
import { listingTable, type ListingTable } from '../../src/search/listing-table.js';
import type { ListingRecord } from '../../src/store/types.js';
import type { World } from '../../src/world/world.js';
import { makeConfig } from '../../src/process/config.js';
import { openDefaultWorld } from '../../src/world/open.js';

/**
 * The search as its definition says, with no shortcuts: every listing checked (its term at the
 * search's time, price in USD at the current rates, distance), the text's matches and tiers taken
 * as the text match finds them (their quality is test/search/'s concern), sorted by featured, then
 * the tier only when no `sort` was asked for, then the order's own comparison of records, then
 * the page cut.
 */
function reference(world: World, table: ListingTable, q: SearchQuery, seedStart: number) {
  const rates = ratesNow(world);
  const usd = (rec: ListingRecord) => toUsdCents(rec.price_cents, rec.currency, rates);
  const term = (rec: ListingRecord) => listingTerm(rec, q.now, seedStart);
  const tiers = textMatches(table, q.q, q.lang);
  const matches: { rec: ListingRecord; tier: number }[] = [];
  for (const [i, rec] of table.recs.entries()) {
    if (term(rec).expires <= q.now || rec.quantity_available <= 0) continue;
    if (q.type && rec.type !== q.type) continue;
    if (q.minCents !== undefined && usd(rec) < q.minCents) continue;
    if (q.maxCents !== undefined && usd(rec) > q.maxCents) continue;
    if (q.categories && !q.categories.has(rec.category)) continue;
    if (q.geo && (rec.lat === null || rec.lng === null)) continue;
    if (q.geo && distanceKm(q.geo.lat, q.geo.lng, rec.lat!, rec.lng!) > q.geo.radiusKm) continue;
    // The text's tier plus one (0: not found).
    const tier = tiers === undefined ? 1 : tiers[i];
    if (tier !== 0) matches.push({ rec, tier });
  }
  const newest = (a: ListingRecord, b: ListingRecord) =>
    term(b).created - term(a).created || (a.id < b.id ? 1 : -1);
  const bySort = {
    newest,
    price_low: (a: ListingRecord, b: ListingRecord) => usd(a) - usd(b) || newest(a, b),
    price_high: (a: ListingRecord, b: ListingRecord) => usd(b) - usd(a) || newest(a, b),
    ending_soon: (a: ListingRecord, b: ListingRecord) => term(a).expires - term(b).expires || newest(a, b),
  }[q.sort];
  const split = q.featuredFirst !== false;
  const ranked = q.ranked === true && q.q !== undefined;
  matches.sort(
    (a, b) =>
      (split ? Number(b.rec.is_featured) - Number(a.rec.is_featured) : 0) ||
      (ranked ? a.tier - b.tier : 0) ||
      bySort(a.rec, b.rec),
  );
  const from = (q.page - 1) * q.limit;
  return { ids: matches.slice(from, from + q.limit).map((m) => m.rec.id), total: matches.length };
}

/** A filter given in one search of four, so that most searches still find something. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });

describe('runSearch against a plain reference', () => {
  it('gives the same page and total for random words, languages, filters, sorts (explicit or ranked), pages and featured-first', async () => {
    // Pinned: the same rates (prices in USD) and the same catalogue on every run.
    const config = makeConfig({
      inMemory: true,
      listings: 2000,
      seed: 7,
      clockStart: '2026-01-01T00:00:00Z',
    });
    const { world } = await openDefaultWorld(config);
    const seedStart = seedStartOf(world.store.db.meta);
    const table = listingTable(world);
    const categories = [...new Set(table.recs.map((r) => r.category))];
    const now = world.clock.now();
    // Words of the seeded titles in several languages, their first three letters (prefixes that
    // also start other words), two-letter words, pairs, and a word in no text.
    const sample = table.recs.filter((_, i) => i % 97 === 0);
    const titleWords = ['en', 'de', 'ru', 'zh'].flatMap((lang) =>
      sample.flatMap((rec) =>
        wordsIn(listingTitle(rec, lang), lang)
          .filter((w) => w.length >= 4)
          .slice(0, 1),
      ),
    );
    // Words that name kinds, other languages' words, typos, and a stopword with a word.
    const both = ['bicycle', 'Fahrrad', 'laptop', 'couch', 'bicylce', 'lamps', 'Lederjacke', 'for rent'];
    const words = [
      ...both,
      ...titleWords,
      ...titleWords.map((w) => [...w].slice(0, 3).join('')),
      ...titleWords.slice(0, 5).map((w, i) => `${w} ${titleWords[i + 5]}`),
      'new',
      'used',
      'the',
      'am',
      'zzzz',
    ];
    fc.assert(
      fc.property(
        fc.record({
          sort: fc.constantFrom(...SORTS),
          page: fc.integer({ min: 1, max: 40 }),
          limit: fc.integer({ min: 1, max: 50 }),
          type: sometimes(fc.constantFrom('mall', 'classifieds', 'auction', 'reverse_auction' as const)),
          category: sometimes(fc.constantFrom(...categories)),
          minCents: sometimes(fc.integer({ min: 0, max: 50_000 })),
          maxCents: sometimes(fc.integer({ min: 0, max: 500_000 })),
          q: fc.option(fc.constantFrom(...words), { nil: undefined, freq: 4 }),
          lang: fc.constantFrom('en', 'de', 'ru', 'zh', 'tl', undefined),
          ranked: fc.boolean(),
          geo: sometimes(
            fc.constantFrom(
              { lat: 52.52, lng: 13.4, radiusKm: 3000 },
              { lat: 40.7, lng: -74, radiusKm: 500 },
            ),
          ),
          featuredFirst: fc.boolean(),
          // Within a day (1-day listings relisted), up to 400 days on (every seeded listing
          // relisted, user listings ended) and back before the seed's start (rounds undone).
          later: fc.oneof(
            fc.integer({ min: 0, max: 24 * 3600_000 }),
            fc.integer({ min: -3 * 864e5, max: 400 * 864e5 }),
          ),
        }),
        (r) => {
          const q: SearchQuery = {
            sort: r.sort,
            page: r.page,
            limit: r.limit,
            type: r.type,
            categories: r.category === undefined ? undefined : new Set([r.category]),
            minCents: r.minCents,
            maxCents: r.maxCents,
            q: r.q,
            lang: r.lang,
            geo: r.geo,
            featuredFirst: r.featuredFirst,
            ranked: r.ranked,
            now: now + r.later,
          };
          const got = runSearch(table, q);
          expect({ ids: got.items.map((x) => x.id), total: got.total }).toEqual(
            reference(world, table, q, seedStart),
          );
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
