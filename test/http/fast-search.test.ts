import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/process/config.js';
import { behindFastPath, type Answer } from '../helpers/fast-server.js';
import { makeSandbox } from '../helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An answer without the headers that differ from one request to the next. */
function stable({ status, headers, text }: Answer): Answer {
  const h: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (!['date', 'ratelimit', 'connection', 'keep-alive'].includes(name)) h[name] = value;
  return { status, headers: h, text };
}

/**
 * A sandbox behind a real server, its clock started (--clock-start: the seed's times) and then
 * set and frozen at the same instant as every other one here (same seed, same data), recording
 * per request whether the fast path answered it.
 */
async function served(overrides: Partial<Config>, through: 'shipped' | 'full path' = 'shipped') {
  const sb = await makeSandbox({ listings: 200, clockStart: '2026-01-01T00:00:00.000Z', ...overrides });
  await sb.http.post('/__sandbox/clock').send({ set: '2026-01-03T00:00:00.000Z', freeze: true });
  // The same Host everywhere: bodies hold absolute image URLs.
  const server = await behindFastPath(sb, 'sandbox.test');
  closers.push(server.close);
  const send = through === 'shipped' ? server.get : server.getFull;
  const get = async (path: string, headers: Record<string, string> = {}) => stable(await send(path, headers));
  const journal = async () =>
    JSON.parse((await get('/__sandbox/requests')).text).requests as Record<string, unknown>[];
  return { sb, get, paths: server.paths, last: server.last, journal };
}

// The reference sandbox answers every request through the full path (every stage in Express).
let full: Awaited<ReturnType<typeof served>>;
let fast: Awaited<ReturnType<typeof served>>;
beforeAll(async () => {
  // A limit no run reaches: the limit headers are still sent, and compared.
  full = await served({ rateLimit: 100_000 }, 'full path');
  fast = await served({ rateLimit: 100_000 });
});

const strip = ({ id: _id, duration_ms: _d, ...rest }: Record<string, unknown>) => rest;

describe('fast search path', () => {
  it('answers an uncached search without Express: same bytes, headers and journal entry as the full path', async () => {
    const path = '/api/shop/listings?q=a&sort=price_low&limit=5&maxPrice=900.5';
    const want = await full.get(path);
    const got = await fast.get(path);
    expect(fast.last()).toBe('fast');
    expect(full.last()).toBe('full');
    expect(got).toEqual(want);
    expect(JSON.parse(got.text).listings).toHaveLength(5);
    const [fastEntry] = await fast.journal();
    const [fullEntry] = await full.journal();
    expect(strip(fastEntry)).toEqual(strip(fullEntry));
    // The query as the client sent it (what the sandbox did with it is in `warnings`).
    expect(fastEntry.query).toEqual({ q: 'a', sort: 'price_low', limit: '5', maxPrice: '900.5' });
    // It is recorded in the response cache: the repeat is a hit with the same bytes.
    const again = await fast.get(path);
    expect(again).toEqual(got);
    expect(fast.last()).toBe('fast');
  });

  it('leaves to the full path every query it cannot be sure of, which answers it as before', async () => {
    const cases = [
      'q=a+b', // a raw reserved character: the validator asks for percent-encoding
      'q=', // empty
      'q=a&q=b', // repeated
      'foo=1', // unknown
      'page=01', // a number written another way
      'maxPrice=1e3',
      'limit=0', // out of range
      'lang=xx', // not in the enum
      'radius=0&lat=1&lng=2', // exclusive minimum (OpenAPI 3.0 form)
      'lat=52.5', // lat, lng and radius go together (the search's own rule)
      'minPrice=5&maxPrice=1',
      'filter[a]=1', // bracket notation
      `api_key=nope`,
      '&limit=2', // an empty pair
    ];
    for (const query of cases) {
      const path = `/api/shop/listings?${query}`;
      const got = await fast.get(path);
      expect(fast.last(), query).toBe('full');
      expect(got, query).toEqual(await full.get(path));
    }
    expect((await fast.get('/api/shop/listings?limit=0')).status).toBe(400);
  });

  it('agrees with the full path on random valid and invalid queries', async () => {
    const value = {
      q: ['lamp', 'a', 'zzzz', '%C3%A9t%C3%A9', 'x%2By', 'a%20b', ''],
      type: ['mall', 'auction', 'boat'],
      category: ['electronics', 'nope'],
      minPrice: ['0', '10', '10.5', '-1', '1e2', '1000000001'],
      maxPrice: ['0', '250', '99999.99', 'abc'],
      sort: ['newest', 'price_high', 'ending_soon', 'cheapest'],
      page: ['1', '2', '0', '1.5', '1000001'],
      limit: ['1', '12', '50', '51'],
      lang: ['en', 'de', 'ja', 'EN'],
      currency: ['EUR', 'usd', 'XXX'],
      lat: ['52.52', '-90', '91'],
      lng: ['13.4', '-180.0'],
      radius: ['50', '0.5', '20041'],
      extra: ['1'],
    } as Record<string, string[]>;
    const pair = fc
      .constantFrom(...Object.keys(value))
      .chain((name) => fc.constantFrom(...value[name]).map((v) => `${name}=${v}`));
    let fastAnswers = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 5 }), async (pairs) => {
        const path = `/api/shop/listings${pairs.length ? `?${pairs.join('&')}` : ''}`;
        const got = await fast.get(path);
        if (fast.last() === 'fast') fastAnswers += 1;
        expect(got, path).toEqual(await full.get(path));
      }),
      { numRuns: 250, seed: 8 },
    );
    // Both kinds were exercised.
    expect(fastAnswers).toBeGreaterThan(25);
    expect(fastAnswers).toBeLessThan(240);
  });

  it('counts against the same rate limit and leaves the over-limit request to the full path (429)', async () => {
    const limited = await served({ rateLimit: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.get(`/api/shop/listings?page=${i + 1}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Three fast answers besides the clock call (which goes through Express, not counted here).
    expect(limited.paths.slice(-4)).toEqual(['fast', 'fast', 'fast', 'full']);
  });

  it('never serves a listing as it was before a write', async () => {
    const own = await served({});
    const path = '/api/shop/listings?sort=price_high&limit=3';
    const before = JSON.parse((await own.get(path)).text).listings as {
      id: string;
      quantity_available: number;
    }[];
    expect(own.last()).toBe('fast');
    const { id } = before[0];
    own.sb.world.store.mutate((db) => {
      db.listings[id].quantity_available = 4321;
    });
    // Another page showing the same listing (its kept text was made for the old version).
    const after = JSON.parse((await own.get(`${path}&lang=en`)).text).listings as typeof before;
    expect(own.last()).toBe('fast');
    expect(after[0]).toMatchObject({ id, quantity_available: 4321 });
  });
});
