import { beforeAll, describe, expect, it } from 'vitest';
import { buildSeed } from '../../src/seed/seed.js';
import { testAccounts } from '../../src/seed/accounts.js';
import { storeFixture } from '../../src/seed/sellers.js';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed } from './helpers.js';

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  sb = await makeSandbox({ listings: 200 });
  now = await freeze(sb);
});

describe('categories', () => {
  it('lists at least 12 top-level categories with emoji, live counts and subcategory counts', async () => {
    const res = await sb.http.get('/api/shop/categories');
    expect(res.status).toBe(200);
    const cats = res.body.categories;
    expect(cats.length).toBeGreaterThanOrEqual(12);
    for (const c of cats) {
      expect(c.icon).toMatch(/\p{Extended_Pictographic}/u);
      expect(c.subcategory_count).toBeGreaterThanOrEqual(2);
      expect(c.subcategory_count).toBeLessThanOrEqual(6);
      const search = await sb.http.get(`/api/shop/listings?category=${c.slug}&limit=1`);
      expect(c.count, c.slug).toBe(search.body.pagination.total);
    }
    expect(cats.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(listed(sb, now).length);
  });

  it('translates names with lang', async () => {
    const de = await sb.http.get('/api/shop/categories?lang=de');
    const en = await sb.http.get('/api/shop/categories');
    expect(de.body.categories[0].slug).toBe(en.body.categories[0].slug);
    expect(de.body.categories.map((c: { name: string }) => c.name)).not.toEqual(
      en.body.categories.map((c: { name: string }) => c.name),
    );
  });

  it('gives a parent and its subcategories, 404 for an unknown parent', async () => {
    const res = await sb.http.get('/api/shop/categories/subcategories/electronics?lang=fr');
    expect(res.status).toBe(200);
    expect(res.body.parent.slug).toBe('electronics');
    expect(res.body.subcategories.length).toBe(res.body.parent.subcategory_count);
    const sum = res.body.subcategories.reduce((n: number, c: { count: number }) => n + c.count, 0);
    expect(sum).toBe(res.body.parent.count);
    for (const s of res.body.subcategories) expect(s.parent).toBe('electronics');
    expectError(
      await sb.http.get('/api/shop/categories/subcategories/nope'),
      404,
      'Category not found: nope',
    );
    const sub = res.body.subcategories[0].slug;
    expectError(await sb.http.get(`/api/shop/categories/subcategories/${sub}`), 404, /Category not found/);
  });
});

describe('stores', () => {
  it('shows the test seller store with its listings, newest first, paged', async () => {
    const res = await sb.http.get('/api/shop/stores/sandbox-seller?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.store).toEqual({
      store_name: 'Kreuzberg Leather & Vintage',
      slug: 'sandbox-seller',
      description: expect.any(String),
    });
    expect(res.body.listings).toHaveLength(5);
    const dates = res.body.listings.map((l: { created_at: string }) => l.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(res.body.listings.map((l: { type: string }) => l.type)).size).toBeGreaterThan(1);
    expect(res.body.pagination.total).toBe(8);
    const page2 = await sb.http.get('/api/shop/stores/sandbox-seller?limit=5&page=2');
    expect(page2.body.listings).toHaveLength(3);
  });

  it('seeds the curated shops of the fixture, each selling only in its subcategories', () => {
    const db = sb.world.store.db;
    const listings = Object.values(db.listings);
    for (const shop of storeFixture()) {
      expect(db.stores[shop.slug], shop.slug).toMatchObject({
        store_name: shop.store_name,
        description: shop.description,
      });
      for (const l of listings.filter((x) => x.store_slug === shop.slug))
        expect(shop.subcategories, `${shop.slug}: ${l.title}`).toContain(l.category);
    }
    for (const l of listings.filter((x) => x.type === 'mall')) expect(l.store_slug, l.title).not.toBeNull();
    expect(listings.some((l) => l.store_slug === null)).toBe(true);
  });

  it("gives the test accounts shops like the others: one category, one city, a shop's name", async () => {
    const parents = new Map<string, string>();
    for (const c of (await sb.http.get('/api/shop/categories')).body.categories) {
      const subs = await sb.http.get(`/api/shop/categories/subcategories/${c.slug}`);
      for (const s of subs.body.subcategories) parents.set(s.slug, c.slug);
    }
    for (const account of testAccounts().filter((a) => a.store)) {
      const slug = account.store!.slug;
      const res = await sb.http.get(`/api/shop/stores/${slug}?limit=50`);
      expect(res.status, slug).toBe(200);
      const listings = res.body.listings as { category: string; location_city: string; currency: string }[];
      expect(listings.length, slug).toBeGreaterThan(2);
      expect(new Set(listings.map((l) => parents.get(l.category))).size, slug).toBe(1);
      expect(new Set(listings.map((l) => l.location_city)).size, slug).toBe(1);
      expect(new Set(listings.map((l) => l.currency)).size, slug).toBe(1);
      // Named and described for a shopper, not after the test machinery behind it.
      const { store_name: name, description } = res.body.store;
      expect(`${name} ${description}`, slug).not.toMatch(/\b(sandbox|subscri\w*|plan|featured|test)\b/i);
    }
  });

  it('has at least 20 seeded stores with sellers', () => {
    const stores = Object.values(sb.world.store.db.stores);
    expect(stores.length).toBeGreaterThanOrEqual(20);
    for (const s of stores) expect(sb.world.store.db.users[s.owner_id]).toBeDefined();
  });

  it('answers 404 for an unknown store, 400 for bad paging and the maximum page for a larger one', async () => {
    expectError(await sb.http.get('/api/shop/stores/no-such-store'), 404, 'Store not found: no-such-store');
    expectError(await sb.http.get('/api/shop/stores/sandbox-seller?limit=0'), 400, /query.limit/);
    const large = await sb.http.get('/api/shop/stores/sandbox-seller?limit=51');
    expect([large.status, large.body.pagination.limit]).toEqual([200, 50]);
    expect(large.headers['x-sandbox-warning']).toBe('limit=51 is above the maximum 50: answered with 50');
  });
});

describe('GET /api/shop/listings/{id}', () => {
  it('returns every Listing field', async () => {
    const id = listed(sb, now)[0].id;
    const res = await sb.http.get(`/api/shop/listings/${id}`);
    expect(res.status).toBe(200);
    for (const field of [
      'id',
      'title',
      'description',
      'type',
      'category',
      'price_cents',
      'currency',
      'accepted_currencies',
      'quantity_available',
      'duration',
      'location_city',
      'location_country',
      'images',
      'is_featured',
      'featured_payment_method',
      'created_at',
    ])
      expect(res.body, field).toHaveProperty(field);
    expect(res.body.images[0]).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/uploads\/seed-.+\.png$/);
  });

  it('answers 404 Listing not found for an unknown id and 400 for a malformed one', async () => {
    expectError(
      await sb.http.get('/api/shop/listings/00000000-0000-4000-8000-000000000000'),
      404,
      'Listing not found',
    );
    expectError(await sb.http.get('/api/shop/listings/not-a-uuid'), 400, /params.id/);
  });
});

describe('seeded catalog shape', () => {
  it('covers every type, duration, some free, featured and single-item listings, known currencies', async () => {
    const all = Object.values(sb.world.store.db.listings);
    expect(all).toHaveLength(200);
    expect(new Set(all.map((l) => l.type)).size).toBe(4);
    expect(new Set(all.map((l) => l.duration)).size).toBe(3);
    expect(all.some((l) => l.price_cents === 0)).toBe(true);
    expect(all.some((l) => l.is_featured)).toBe(true);
    expect(all.some((l) => l.quantity_available === 1)).toBe(true);
    const currencies = new Set(all.map((l) => l.currency));
    for (const code of ['USD', 'EUR']) expect(currencies.has(code)).toBe(true);
  });

  it('gives the test accounts their listings and the buyers none', async () => {
    const db = sb.world.store.db;
    const owner = (email: string) => Object.values(db.users).find((u) => u.email === email)!.id;
    const of = (email: string) => Object.values(db.listings).filter((l) => l.seller_id === owner(email));
    expect(new Set(of('seller@sandbox.test').map((l) => l.type)).size).toBe(4);
    const featured = (email: string) =>
      of(email).filter((l) => l.is_featured && l.featured_payment_method === 'subscription');
    expect(featured('subscriber@sandbox.test')).toHaveLength(2);
    expect(featured('maxed@sandbox.test')).toHaveLength(3);
    expect(of('buyer@sandbox.test')).toHaveLength(0);
    expect(of('broke@sandbox.test')).toHaveLength(0);
  });

  it('is byte-identical for the same seed', async () => {
    const options = { seed: 9, listings: 50, clockStart: '2026-01-01T00:00:00.000Z' };
    expect(JSON.stringify(buildSeed(options))).toBe(JSON.stringify(buildSeed(options)));
  });
});
