import { beforeAll, describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/api/listings/search.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed, usdOf } from './helpers.js';
import type { ListingRecord } from '../../src/store/types.js';

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  sb = await makeSandbox({ listings: 300 });
  now = await freeze(sb);
});

const get = (query: string) => sb.http.get(`/api/shop/listings${query}`);

describe('GET /api/shop/listings: shape and paging', () => {
  it('answers exactly {listings, pagination} with 12 per page by default', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['listings', 'pagination']);
    const total = listed(sb, now).length;
    expect(res.body.pagination).toEqual({ page: 1, limit: 12, total, totalPages: Math.ceil(total / 12) });
    expect(res.body.listings).toHaveLength(12);
  });

  it('pages through every listed listing exactly once', async () => {
    const seen = new Set<string>();
    const first = await get('?limit=50');
    for (let page = 1; page <= first.body.pagination.totalPages; page += 1) {
      const res = await get(`?limit=50&page=${page}`);
      for (const l of res.body.listings) seen.add(l.id);
    }
    expect(seen.size).toBe(first.body.pagination.total);
  });

  it('gives an empty page past the end, with the right total', async () => {
    const res = await get('?limit=50&page=999');
    expect(res.status).toBe(200);
    expect(res.body.listings).toEqual([]);
    expect(res.body.pagination.total).toBe(listed(sb, now).length);
  });

  it('refuses out-of-range page and limit, and ignores a larger limit and unknown parameters with a warning', async () => {
    expectError(await get('?limit=0'), 400, /query.limit/);
    expectError(await get('?page=0'), 400, /query.page/);
    expectError(await get('?page=abc'), 400, /query.page/);
    const larger = await get('?limit=51&color=red');
    expect([larger.status, larger.body.pagination.limit]).toEqual([200, 50]);
    expect(larger.headers['x-sandbox-warning']).toBe(
      'limit=51 is above the maximum 50: answered with 50; unknown query parameter "color" ignored',
    );
  });
});

describe('GET /api/shop/listings: filters against the seeded data', () => {
  it('filters by type', async () => {
    for (const type of ['mall', 'classifieds', 'auction', 'reverse_auction']) {
      const res = await get(`?type=${type}&limit=50`);
      const expected = listed(sb, now).filter((l) => l.type === type);
      expect(expected.length).toBeGreaterThan(0);
      expect(res.body.pagination.total).toBe(expected.length);
      expect(res.body.listings.every((l: { type: string }) => l.type === type)).toBe(true);
    }
    expectError(await get('?type=barter'), 400, /query.type/);
  });

  it('matches a parent category and its subcategories', async () => {
    const subs = sb.world.store.db.categories.filter((c) => c.parent === 'electronics').map((c) => c.slug);
    const expected = listed(sb, now).filter((l) => subs.includes(l.category) || l.category === 'electronics');
    const res = await get('?category=electronics&limit=50');
    expect(res.body.pagination.total).toBe(expected.length);
    const sub = await get(`?category=${subs[0]}&limit=50`);
    expect(sub.body.pagination.total).toBe(expected.filter((l) => l.category === subs[0]).length);
    expect((await get('?category=no-such-category')).body.pagination.total).toBe(0);
  });

  it('filters by price in dollars, inclusive, on each price converted to USD at the current rates', async () => {
    const usd = usdOf(sb);
    const expected = listed(sb, now).filter((l) => usd(l) >= 1000 && usd(l) <= 5000);
    const res = await get('?minPrice=10&maxPrice=50&limit=50');
    expect(res.body.pagination.total).toBe(expected.length);
    for (const l of res.body.listings) expect(usd(l)).toBeGreaterThanOrEqual(1000);
    const foreign = listed(sb, now).find(
      (l) => !['USD', 'Credit-USD'].includes(l.currency) && l.price_cents > 0,
    )!;
    const dollars = usd(foreign) / 100;
    const hit = await get(`?minPrice=${dollars}&maxPrice=${dollars}&limit=50`);
    expect(hit.body.listings.map((l: { id: string }) => l.id)).toContain(foreign.id);
    const free = await get('?maxPrice=0&limit=50');
    expect(free.body.pagination.total).toBeGreaterThan(0);
    expect(free.body.listings.every((l: { price_cents: number }) => l.price_cents === 0)).toBe(true);
    expectError(
      await get('?minPrice=50&maxPrice=10'),
      400,
      'query.minPrice must not be greater than query.maxPrice',
    );
    expectError(await get('?minPrice=-1'), 400, /query.minPrice/);
  });

  it('follows the rate window: after the clock moves, prices compare and sort at the new rates', async () => {
    const local = await makeSandbox({ listings: 300 });
    await freeze(local);
    // A first search builds the index at the start's rates.
    await local.http.get('/api/shop/listings?sort=price_high&minPrice=1');
    await local.http.post('/__sandbox/clock').send({ advance: '7h' });
    const usd = usdOf(local);
    const at = await local.http.get('/__sandbox/clock');
    const start = Date.parse(at.body.now);
    const shown = listed(local, start);
    const res = await local.http.get(
      '/api/shop/listings?minPrice=20&maxPrice=200&sort=price_high&limit=50&page=1',
    );
    expect(res.body.pagination.total).toBe(shown.filter((l) => usd(l) >= 2000 && usd(l) <= 20000).length);
    const plain = res.body.listings.filter((l: { is_featured: boolean }) => !l.is_featured);
    for (let i = 1; i < plain.length; i += 1) expect(usd(plain[i])).toBeLessThanOrEqual(usd(plain[i - 1]));
    // The dearest foreign price, matched to the cent at the new rates.
    const foreign = shown
      .filter((l) => !['USD', 'Credit-USD'].includes(l.currency))
      .sort((a, b) => usd(b) - usd(a))[0];
    const exact = usd(foreign) / 100;
    const hit = await local.http.get(`/api/shop/listings?minPrice=${exact}&maxPrice=${exact}&limit=50`);
    expect(hit.body.listings.map((l: { id: string }) => l.id)).toContain(foreign.id);
  });

  it('never takes a BTC price for dollars: maxPrice=0.05 finds only what costs at most 5 cents', async () => {
    const usd = usdOf(sb);
    const btc = listed(sb, now).filter((l) => l.currency === 'BTC');
    const cheap = await get('?maxPrice=0.05&limit=50');
    expect(cheap.body.pagination.total).toBe(listed(sb, now).filter((l) => usd(l) <= 5).length);
    for (const l of cheap.body.listings) expect(l.currency === 'BTC' && l.price_cents > 0).toBe(false);
    if (btc.length > 0) {
      const dear = await get(`?currency=BTC&minPrice=${Math.floor(usd(btc[0]) / 100)}&limit=50`);
      expect(dear.body.listings.map((l: { id: string }) => l.id)).toContain(btc[0].id);
    }
    // 0.01 BTC (price_cents 1) is worth hundreds of dollars, not one cent.
    const local = await makeSandbox();
    await freeze(local);
    const made = await local.http
      .post('/api/shop/listings')
      .set('Authorization', `Bearer ${accounts.seller.apiKey}`)
      .send({ type: 'mall', title: 'Zorblax pan', category: 'kitchen', price_cents: 1, currency: 'BTC' });
    expect(made.status).toBe(201);
    const find = (query: string) => local.http.get(`/api/shop/listings?q=zorblax&${query}`);
    expect((await find('maxPrice=0.05')).body.pagination.total).toBe(0);
    const worth = usdOf(local)(made.body) / 100;
    expect(worth).toBeGreaterThan(500);
    expect(
      (await find(`minPrice=${Math.floor(worth)}&maxPrice=${Math.ceil(worth)}`)).body.pagination.total,
    ).toBe(1);
  });

  it('filters by display currency, case-insensitively', async () => {
    for (const code of ['EUR', 'JPY', 'BTC', 'Credit-USD']) {
      const expected = listed(sb, now).filter((l) => l.currency === code).length;
      expect((await get(`?currency=${code}`)).body.pagination.total).toBe(expected);
    }
    expect((await get('?currency=eur')).body.pagination.total).toBe(
      listed(sb, now).filter((l) => l.currency === 'EUR').length,
    );
    expect((await get('?currency=XYZ')).body.pagination.total).toBe(0);
  });

  it('finds listings within a radius (great-circle km) and needs lat, lng and radius together', async () => {
    const berlin = { lat: 52.52, lng: 13.405 };
    const res = await get(`?lat=${berlin.lat}&lng=${berlin.lng}&radius=30&limit=50`);
    expect(res.body.pagination.total).toBeGreaterThan(0);
    for (const l of res.body.listings) expect(l.location_city).toBe('Berlin');
    const wide = await get(`?lat=${berlin.lat}&lng=${berlin.lng}&radius=20000&limit=1`);
    expect(wide.body.pagination.total).toBe(listed(sb, now).filter((l) => l.lat !== null).length);
    for (const [lat, lng, radius] of [
      [48.8566, 2.3522, 100],
      [48.8566, 2.3522, 700],
      [35.68, 139.69, 1500],
      [-33.9, 151.2, 3000],
      [0, 179.9, 2500],
    ]) {
      const expected = listed(sb, now).filter(
        (l) => l.lat !== null && distanceKm(lat, lng, l.lat, l.lng as number) <= radius,
      ).length;
      const found = await get(`?lat=${lat}&lng=${lng}&radius=${radius}&limit=1`);
      expect(found.body.pagination.total, `${lat},${lng} ${radius} km`).toBe(expected);
    }
    expectError(await get('?radius=10'), 400, /query.lat, query.lng and query.radius/);
    expectError(await get('?lat=52&radius=10'), 400, /together/);
    expectError(await get('?lat=52&lng=13'), 400, /together/);
    expectError(await get('?lat=91&lng=13&radius=5'), 400, /query.lat/);
    expectError(await get('?lat=52&lng=13&radius=0'), 400, /query.radius/);
  });
});

describe('GET /api/shop/listings: order', () => {
  const ids = (res: { body: { listings: { id: string }[] } }) => res.body.listings.map((l) => l.id);

  it('puts featured listings first, then newest', async () => {
    const res = await get('?limit=50');
    const flags = res.body.listings.map((l: { is_featured: boolean }) => l.is_featured);
    const firstPlain = flags.indexOf(false);
    expect(flags.slice(firstPlain).every((f: boolean) => !f)).toBe(true);
    const plain = res.body.listings.slice(firstPlain).map((l: { created_at: string }) => l.created_at);
    expect([...plain].sort().reverse()).toEqual(plain);
  });

  it('sorts by the USD value of the price both ways, and by end time', async () => {
    const usd = usdOf(sb);
    const plain = (res: { body: { listings: (ListingRecord & { is_featured: boolean })[] } }) =>
      res.body.listings.filter((l) => !l.is_featured);
    const low = plain(await get('?sort=price_low&limit=50'));
    for (let i = 1; i < low.length; i += 1) expect(usd(low[i])).toBeGreaterThanOrEqual(usd(low[i - 1]));
    const high = plain(await get('?sort=price_high&limit=50'));
    for (let i = 1; i < high.length; i += 1) expect(usd(high[i])).toBeLessThanOrEqual(usd(high[i - 1]));
    expect(new Set(high.map((l) => l.currency)).size).toBeGreaterThan(1);
    const ending = (await get('?sort=ending_soon&limit=50')).body.listings
      .filter((l: { is_featured: boolean }) => !l.is_featured)
      .map((l: { expires_at: string }) => Date.parse(l.expires_at));
    for (let i = 1; i < ending.length; i += 1) expect(ending[i]).toBeGreaterThanOrEqual(ending[i - 1]);
    expect(ids(await get('?sort=newest'))).toEqual(ids(await get('')));
    expectError(await get('?sort=cheapest'), 400, /query.sort/);
  });
});
