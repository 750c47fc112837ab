import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, useSandbox } from './support/client.js';
import {
  fieldProblems,
  LISTING_FIELDS,
  PAGINATION_FIELDS,
  SEARCH_LISTING_FIELDS,
} from './support/document.js';
import { createListing, type Listing, type Search } from './support/shop.js';

// Interface document, 4.5 GET /api/shop/listings (public) and 4.6 Single listing read.
const ctx = useSandbox();
const search = (query: Record<string, string | number> = {}) =>
  ctx.api.get<Search>('/api/shop/listings', { query });

/** USD value of a listing's price in dollars, at the rates the sandbox publishes (4.12). */
async function usdPricer(): Promise<(l: Listing) => number> {
  // Frozen, so the searches that follow use the same 30-minute rate window as these rates.
  await ctx.sandbox.clock.freeze();
  const rates = await ctx.api.get<{ rates: Record<string, { rate: number }> }>('/api/wallet/exchange-rates');
  return (l) => l.price_cents / 100 / rates.body.rates[l.currency].rate;
}

/** Every listing a search finds, page by page (50 a page). */
async function everyPage(query: Record<string, string | number>): Promise<Listing[]> {
  const out: Listing[] = [];
  for (let page = 1; ; page++) {
    const res = await search({ ...query, limit: 50, page });
    out.push(...res.body.listings);
    if (page >= res.body.pagination.totalPages) return out;
  }
}

/** Featured listings come first ("top-of-search placement"); the sort applies within each group. */
function sortedWithinGroups(listings: Listing[], key: (l: Listing) => number, direction: 1 | -1): boolean {
  const featuredFirst = listings.every((l, i) => i === 0 || !l.is_featured || listings[i - 1].is_featured);
  const inOrder = listings.every(
    (l, i) =>
      i === 0 ||
      l.is_featured !== listings[i - 1].is_featured ||
      direction * (key(l) - key(listings[i - 1])) >= -1e-9,
  );
  return featuredFirst && inOrder;
}

describe('4.5 GET /api/shop/listings: the response', () => {
  it('"Query parameters (all optional)" and "page | number | default 1", "limit | number | default 12"', async () => {
    const res = await search();
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 12 });
    expect(res.body.listings).toHaveLength(12);
  });

  it('"listings (array of Listing objects with id, title, description, price_cents, type, category, location_city, images, currency, accepted_currencies, created_at)"', async () => {
    const res = await search({ limit: 50 });
    const fields = Object.fromEntries(SEARCH_LISTING_FIELDS.map((f) => [f, LISTING_FIELDS[f]]));
    for (const l of res.body.listings) expect(fieldProblems(l, fields, l.id)).toEqual([]);
  });

  it('"pagination (page, limit, total, totalPages; all integers)", totalPages covering total', async () => {
    const res = await search({ limit: 7, page: 2 });
    expect(fieldProblems(res.body.pagination, PAGINATION_FIELDS, 'pagination')).toEqual([]);
    const { page, limit, total, totalPages } = res.body.pagination;
    expect([page, limit, totalPages]).toEqual([2, 7, Math.ceil(total / 7)]);
    const first = await search({ limit: 7, page: 1 });
    expect(res.body.listings.map((l) => l.id)).not.toEqual(first.body.listings.map((l) => l.id));
  });

  it('"limit | number | default 12, maximum 50": 50 is served', async () => {
    const res = await search({ limit: 50 });
    expect([res.status, res.body.listings.length, res.body.pagination.limit]).toEqual([200, 50, 50]);
  });

  it('"limit | number | default 12, maximum 50": a larger limit is answered with at most 50', async () => {
    const res = await search({ limit: 100 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination.limit).toBe(50);
    expect(res.body.listings.length).toBeLessThanOrEqual(50);
  });

  it('"Query parameters (all optional)": empty values, as a form sends them, are the same as absent', async () => {
    const res = await ctx.api.get<Search>('/api/shop/listings', { query: { q: '', category: '', type: '' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination.total).toBe((await search()).body.pagination.total);
  });
});

describe('4.5 GET /api/shop/listings: each parameter', () => {
  it('"q | string | searches title and description": a word of the title, a word of the description', async () => {
    const token = await logIn(ctx.api, accounts.seller.email, accounts.seller.password);
    const created = await createListing(ctx.api, token, {
      title: 'Zebrawood chessboard',
      description: 'Handmade from quartersawn timber.',
    });
    expect((await search({ q: 'chessboard' })).body.listings.map((l) => l.id)).toContain(created.body.id);
    expect((await search({ q: 'quartersawn' })).body.listings.map((l) => l.id)).toContain(created.body.id);
  });

  it('"q | string | searches title and description, including translations": a German search finds a listing by a word of its German title', async () => {
    // Read as: the translation in the language asked for is searched, not only the original text.
    const en = (await search({ limit: 30 })).body.listings;
    const de = (await search({ limit: 30, lang: 'de' })).body.listings;
    const pair = de
      .map((l, i) => ({
        id: l.id,
        word: l.title
          .split(/\s+/)
          .find(
            (w) =>
              /^\p{L}{5,}$/u.test(w) &&
              !`${en[i].title} ${en[i].description ?? ''}`.toLowerCase().includes(w.toLowerCase()),
          ),
      }))
      .find((p) => p.word);
    expect(pair, 'a seeded listing whose German title has a word of its own').toBeDefined();
    const found = await search({ q: pair!.word!, lang: 'de', limit: 50 });
    expect(found.body.listings.map((l) => l.id)).toContain(pair!.id);
  });

  it('"q | string": free text as every form encoder sends it (space as +, parentheses, commas, apostrophes)', async () => {
    for (const q of ['leather jacket', 'lamp (new)', 'a,b', "kid's"]) {
      const res = await search({ q });
      expect([q, res.status], res.text).toEqual([q, 200]);
    }
  });

  it('"type | string | mall, classifieds, auction, reverse_auction"', async () => {
    for (const type of ['mall', 'classifieds', 'auction', 'reverse_auction']) {
      const res = await search({ type, limit: 50 });
      expect(res.body.listings.length, type).toBeGreaterThan(0);
      expect(new Set(res.body.listings.map((l) => l.type))).toEqual(new Set([type]));
    }
  });

  it('"category | string | category slug"', async () => {
    const subs = await ctx.api.get<{ subcategories: { slug: string }[] }>(
      '/api/shop/categories/subcategories/electronics',
    );
    const allowed = new Set(['electronics', ...subs.body.subcategories.map((s) => s.slug)]);
    const res = await search({ category: 'electronics', limit: 50 });
    expect(res.body.listings.length).toBeGreaterThan(0);
    for (const l of res.body.listings) expect(allowed.has(l.category), l.category).toBe(true);
  });

  it('"minPrice | number | dollars", "maxPrice | number | dollars": exactly the listings whose price, in dollars, lies between', async () => {
    const dollars = await usdPricer();
    const inRange = (l: Listing) => dollars(l) >= 5 && dollars(l) <= 40;
    // Listings within a cent of a bound are left out of the comparison (rounding at conversion).
    const clear = (l: Listing) => Math.min(Math.abs(dollars(l) - 5), Math.abs(dollars(l) - 40)) > 0.01;
    const everything = await everyPage({});
    const expected = everything.filter((l) => clear(l) && inRange(l)).map((l) => l.id);
    const got = (await everyPage({ minPrice: 5, maxPrice: 40 })).filter(clear);
    expect(
      got
        .filter((l) => !inRange(l))
        .map((l) => `${l.price_cents} ${l.currency} = ${dollars(l).toFixed(2)} USD`),
    ).toEqual([]);
    expect(new Set(got.map((l) => l.id))).toEqual(new Set(expected));
    const cheap = await search({ maxPrice: 0.05, limit: 50 });
    expect(
      cheap.body.listings
        .filter((l) => dollars(l) > 0.05 + 0.005)
        .map((l) => `${l.price_cents} ${l.currency}`),
    ).toEqual([]);
  });

  it('"sort | string | newest": newest first', async () => {
    const res = await search({ sort: 'newest', limit: 50 });
    expect(sortedWithinGroups(res.body.listings, (l) => Date.parse(l.created_at), -1)).toBe(true);
  });

  it('"sort | string | price_low, price_high": by price, whatever the currency it is shown in', async () => {
    const dollars = await usdPricer();
    const low = await search({ sort: 'price_low', limit: 50 });
    const high = await search({ sort: 'price_high', limit: 50 });
    expect(sortedWithinGroups(low.body.listings, dollars, 1)).toBe(true);
    expect(sortedWithinGroups(high.body.listings, dollars, -1)).toBe(true);
  });

  it('"sort | string | ending_soon": the listing that ends first comes first (by the sandbox\'s expires_at)', async () => {
    const res = await search({ sort: 'ending_soon', limit: 50 });
    expect(sortedWithinGroups(res.body.listings, (l) => Date.parse(String(l.expires_at)), 1)).toBe(true);
  });

  it('"lang | string | language code for translated titles"', async () => {
    const en = await search({ limit: 20 });
    const ko = await search({ limit: 20, lang: 'ko' });
    expect(ko.body.listings.map((l) => l.id)).toEqual(en.body.listings.map((l) => l.id));
    const translated = ko.body.listings.filter((l, i) => l.title !== en.body.listings[i].title);
    expect(translated.length).toBeGreaterThan(15);
  });

  it('"lang | string | language code": a code in capitals or with a region (as browsers send it) gives that language', async () => {
    const base = (lang: string) => search({ limit: 5, lang });
    for (const [sent, language] of [
      ['EN', 'en'],
      ['de-DE', 'de'],
      ['pt-BR', 'pt'],
    ]) {
      const res = await base(sent);
      expect([sent, res.status], res.text).toEqual([sent, 200]);
      expect(res.body.listings.map((l) => l.title)).toEqual(
        (await base(language)).body.listings.map((l) => l.title),
      );
    }
  });

  it('"currency | string | filter by display currency"', async () => {
    const res = await search({ currency: 'EUR', limit: 50 });
    expect(res.body.listings.length).toBeGreaterThan(0);
    expect(new Set(res.body.listings.map((l) => l.currency))).toEqual(new Set(['EUR']));
  });

  it('"lat, lng, radius | number | location search; radius in km" (distances from the sandbox\'s lat and lng)', async () => {
    const res = await search({ lat: 52.52, lng: 13.405, radius: 30, limit: 50 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.listings.length).toBeGreaterThan(0);
    for (const l of res.body.listings)
      expect(km(52.52, 13.405, Number(l.lat), Number(l.lng)), l.location_city).toBeLessThanOrEqual(30);
    expect(res.body.pagination.total).toBeLessThan((await search()).body.pagination.total);
  });
});

describe('4.6 Single listing read (sandbox choice: GET /api/shop/listings/{id})', () => {
  it('"Returns one listing; query lang gives translated content; the response includes currency and accepted_currencies."', async () => {
    const [first] = (await search({ limit: 1, lang: 'fr' })).body.listings;
    const res = await ctx.api.get<Listing>(`/api/shop/listings/${first.id}`, { query: { lang: 'fr' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, title: first.title, currency: expect.any(String) });
    expect(Array.isArray(res.body.accepted_currencies)).toBe(true);
    const english = await ctx.api.get<Listing>(`/api/shop/listings/${first.id}`);
    expect(english.body.title).not.toBe(first.title);
  });

  it('"| 404 | Not Found | Listing not found |" (7): an unknown id', async () => {
    expectError(
      await ctx.api.get('/api/shop/listings/6d1f0a6e-0000-4000-8000-000000000000'),
      404,
      'Listing not found',
    );
  });
});

/** Great-circle distance in km. */
function km(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}
