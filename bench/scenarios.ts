import { readFileSync } from 'node:fs';
import { operations } from '../src/contract/spec.js';
import { call, load, type Load } from './load.js';

/** The measured endpoints; `n/a` when the operation is not in openapi.yaml of this tree. */
export const ENDPOINTS = [
  'listings page',
  'q search',
  'q search, uncached',
  'shopper q, uncached',
  'geo search',
  'geo search, uncached',
  'single listing',
  'categories',
  'login',
  'checkout',
] as const;
export type EndpointName = (typeof ENDPOINTS)[number];
export type Measured = Load | { missing: string };

const BUYER = { email: 'buyer@sandbox.test', password: 'buyer-pass-123' };

function has(method: string, path: string): boolean {
  return operations().some((op) => op.method === method && op.path === path);
}

interface Listing {
  id: string;
  title?: string;
  type?: string;
  price_cents?: number;
}

/**
 * URLs that each run a real search: the response cache keys on the whole URL, so no two of these
 * share an entry (a repeated URL is answered from the cache, which the plain rows measure). Each
 * is a `q` search for a title word with a `maxPrice` far above every price (10,000,000–10,000,999
 * dollars), so it finds exactly what the plain search finds, with the default page size, and the
 * set is far larger than a run's requests.
 */
export function uncachedQueries(words: string[]): string[] {
  const paths: string[] = [];
  for (let k = 0; k < 1000; k++)
    for (const w of words)
      paths.push(`/api/shop/listings?q=${encodeURIComponent(w)}&maxPrice=${10_000_000 + k}`);
  return paths;
}

/**
 * The shopper query set's searches (test/search/shopper-queries.json: kinds, synonyms, typos,
 * other languages, with and without `lang`), each URL made distinct as {@link uncachedQueries} does.
 */
export function shopperQueries(): string[] {
  const set = JSON.parse(
    readFileSync(new URL('../test/search/shopper-queries.json', import.meta.url), 'utf8'),
  ) as Record<'tuning' | 'held_out', { q: string; lang?: string | null }[]>;
  const queries = [...set.tuning, ...set.held_out];
  const paths: string[] = [];
  for (let k = 0; k < 400; k++)
    for (const { q, lang } of queries)
      paths.push(
        `/api/shop/listings?q=${encodeURIComponent(q)}${lang ? `&lang=${lang}` : ''}&maxPrice=${10_000_000 + k}`,
      );
  return paths;
}

/** Checks that the uncached rows' `maxPrice` leaves the search's result as it is. */
async function sameSearch(base: string, word: string): Promise<void> {
  const total = async (path: string) =>
    ((await call(base, 'GET', path)).json as { pagination?: { total?: number } } | null)?.pagination?.total;
  const q = `/api/shop/listings?q=${encodeURIComponent(word)}`;
  const [plain, capped] = [await total(q), await total(`${q}&maxPrice=10000000`)];
  if (plain === undefined || plain !== capped)
    throw new Error(`uncached q rows would not measure the plain search: total ${plain} vs ${capped}`);
}

/** Geo searches around varied points (0.01° steps around Berlin, radius 50 km), each URL distinct. */
export function uncachedGeo(count = 20_000): string[] {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const lat = (52.0 + (i % 100) * 0.01).toFixed(2);
    const lng = (13.0 + Math.floor(i / 100) * 0.01).toFixed(2);
    paths.push(`/api/shop/listings?lat=${lat}&lng=${lng}&radius=50`);
  }
  return paths;
}

/** Listing ids and a title word for the search, from the first pages of the catalogue. */
async function sample(base: string): Promise<{ listings: Listing[]; word: string; words: string[] }> {
  const listings: Listing[] = [];
  for (let page = 1; page <= 6; page++) {
    const res = await call(base, 'GET', `/api/shop/listings?limit=50&page=${page}`);
    const batch = (res.json as { listings?: Listing[] } | null)?.listings ?? [];
    listings.push(...batch);
    if (batch.length < 50) break;
  }
  const titleWords = (title: string | undefined) =>
    (title ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => /^[a-z]{4,}$/.test(w));
  const words = [...new Set(listings.flatMap((l) => titleWords(l.title)))];
  return {
    listings,
    word: titleWords(listings[0]?.title)[0] ?? 'chair',
    words: words.length ? words : ['chair'],
  };
}

async function checkoutBodies(
  base: string,
  listings: Listing[],
): Promise<{ bodies: string[]; auth: string }> {
  const login = await call(base, 'POST', '/api/auth/login', BUYER);
  const token = (login.json as { token?: string } | null)?.token ?? '';
  // Fund the buyer so checkout pays from the wallet (the money issue's control call).
  await call(base, 'POST', `/__sandbox/wallets/${BUYER.email}/fund`, { amount_cents: 1_000_000_000 });
  const buyable = listings.filter((l) => l.type === 'mall' || l.type === 'classifieds');
  const bodies = buyable.map((l) =>
    JSON.stringify({
      cartItems: [{ listing_id: l.id, quantity: 1 }],
      shippingAddress: { street: '1 Bench Street', city: 'Berlin', zip: '10115' },
      deliveryMethod: 'shipping',
      paymentMethod: 'credit_wallet',
      shippingCostCents: 0,
    }),
  );
  return { bodies, auth: `Bearer ${token}` };
}

/** One sandbox's load settings and the catalogue sample the endpoint rows draw on. */
interface Target {
  base: string;
  connections: number;
  durationS: number;
  listings: Listing[];
  word: string;
  words: string[];
}

interface EndpointMeasure {
  /** The operation it loads (reported as missing when openapi.yaml of this tree lacks it). */
  op?: [method: string, path: string];
  /** Needs listings from the sample (single listing, checkout). */
  sampled?: boolean;
  run(t: Target): Promise<Measured>;
}

const LISTINGS_OP: [string, string] = ['get', '/api/shop/listings'];
const get = (t: Target, path: string) =>
  load({ url: t.base + path, connections: t.connections, durationS: t.durationS });
const rotate = (t: Target, paths: string[]) =>
  load({ url: t.base + paths[0], connections: t.connections, durationS: t.durationS, paths });

async function checkout(t: Target): Promise<Measured> {
  const { bodies, auth } = await checkoutBodies(t.base, t.listings);
  const { base, connections, durationS } = t;
  const headers = { authorization: auth };
  return load({ url: `${base}/api/shop/checkout`, connections, durationS, method: 'POST', bodies, headers });
}

/** Each row's load, in the order they run. */
const MEASURES: Record<EndpointName, EndpointMeasure> = {
  'listings page': { op: LISTINGS_OP, run: (t) => get(t, '/api/shop/listings') },
  'q search': { op: LISTINGS_OP, run: (t) => get(t, `/api/shop/listings?q=${encodeURIComponent(t.word)}`) },
  'q search, uncached': {
    op: LISTINGS_OP,
    run: async (t) => {
      await sameSearch(t.base, t.word);
      return rotate(t, uncachedQueries(t.words));
    },
  },
  'shopper q, uncached': { op: LISTINGS_OP, run: (t) => rotate(t, shopperQueries()) },
  'geo search': { op: LISTINGS_OP, run: (t) => get(t, '/api/shop/listings?lat=52.52&lng=13.405&radius=50') },
  'geo search, uncached': { op: LISTINGS_OP, run: (t) => rotate(t, uncachedGeo()) },
  'single listing': {
    op: ['get', '/api/shop/listings/{id}'],
    sampled: true,
    run: (t) => get(t, `/api/shop/listings/${t.listings[0].id}`),
  },
  categories: { op: ['get', '/api/shop/categories'], run: (t) => get(t, '/api/shop/categories') },
  login: {
    run: ({ base, connections, durationS }) =>
      load({
        url: `${base}/api/auth/login`,
        connections,
        durationS,
        method: 'POST',
        body: JSON.stringify(BUYER),
      }),
  },
  checkout: { op: ['post', '/api/shop/checkout'], sampled: true, run: checkout },
};

/** One row, or why it has no figure. */
function measureOne(name: EndpointName, t: Target, skip: string | undefined): Promise<Measured> {
  if (skip) return Promise.resolve({ missing: skip });
  const m = MEASURES[name];
  const missing = { missing: `n/a (endpoint missing: ${m.op?.[0].toUpperCase()} ${m.op?.[1]})` };
  if (m.op && !has(...m.op)) return Promise.resolve(missing);
  if (m.sampled && t.listings.length === 0) return Promise.resolve(missing);
  return m.run(t);
}

/**
 * Measures the endpoints against one running sandbox; those outside `only` (all by default) are
 * reported with `skipped` as their figure.
 */
export async function measureEndpoints(
  base: string,
  connections: number,
  durationS: number,
  /** Runs right after the listings page (the reference servers, under the same load). */
  afterListingsPage: () => Promise<void> = async () => undefined,
  only?: { names: ReadonlySet<EndpointName>; skipped: string },
): Promise<Record<EndpointName, Measured>> {
  const sampled = has(...LISTINGS_OP)
    ? await sample(base)
    : { listings: [], word: 'chair', words: ['chair'] };
  const target: Target = { base, connections, durationS, ...sampled };
  const out = {} as Record<EndpointName, Measured>;
  for (const name of ENDPOINTS) {
    out[name] = await measureOne(name, target, only && !only.names.has(name) ? only.skipped : undefined);
    if (name === 'listings page') await afterListingsPage();
  }
  return out;
}

/** Acknowledged durable writes per second: each response waits for the group-commit flush. */
export async function measureWrites(
  base: string,
  connections: number,
  durationS: number,
): Promise<Record<string, Load>> {
  return {
    'POST /__sandbox/clock {advance}': await load({
      url: `${base}/__sandbox/clock`,
      connections,
      durationS,
      method: 'POST',
      body: JSON.stringify({ advance: 1 }),
    }),
    'POST /api/auth/guest': await load({
      url: `${base}/api/auth/guest`,
      connections,
      durationS,
      method: 'POST',
    }),
  };
}
