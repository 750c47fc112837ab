import { operations } from '../src/http/spec.js';
import { call, load, type Load } from './load.js';

/** The measured endpoints; `n/a` when the operation is not in openapi.yaml of this tree. */
export const ENDPOINTS = [
  'listings page',
  'q search',
  'q search, uncached',
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

/** Measures every endpoint against one running sandbox. */
export async function measureEndpoints(
  base: string,
  connections: number,
  durationS: number,
  /** Runs right after the listings page (the reference servers, under the same load). */
  afterListingsPage: () => Promise<void> = async () => undefined,
): Promise<Record<EndpointName, Measured>> {
  const out = {} as Record<EndpointName, Measured>;
  const missing = (what: string) => ({ missing: `n/a (endpoint missing: ${what})` });
  const listingsOk = has('get', '/api/shop/listings');
  const { listings, word, words } = listingsOk
    ? await sample(base)
    : { listings: [], word: 'chair', words: ['chair'] };
  const run = (path: string) => load({ url: base + path, connections, durationS });
  const rotate = (paths: string[]) => load({ url: base + paths[0], connections, durationS, paths });

  out['listings page'] = listingsOk ? await run('/api/shop/listings') : missing('GET /api/shop/listings');
  await afterListingsPage();
  out['q search'] = listingsOk
    ? await run(`/api/shop/listings?q=${encodeURIComponent(word)}`)
    : missing('GET /api/shop/listings');
  if (listingsOk) await sameSearch(base, word);
  out['q search, uncached'] = listingsOk
    ? await rotate(uncachedQueries(words))
    : missing('GET /api/shop/listings');
  out['geo search'] = listingsOk
    ? await run('/api/shop/listings?lat=52.52&lng=13.405&radius=50')
    : missing('GET /api/shop/listings');
  out['geo search, uncached'] = listingsOk ? await rotate(uncachedGeo()) : missing('GET /api/shop/listings');
  out['single listing'] =
    has('get', '/api/shop/listings/{id}') && listings[0]
      ? await run(`/api/shop/listings/${listings[0].id}`)
      : missing('GET /api/shop/listings/{id}');
  out.categories = has('get', '/api/shop/categories')
    ? await run('/api/shop/categories')
    : missing('GET /api/shop/categories');
  out.login = await load({
    url: `${base}/api/auth/login`,
    connections,
    durationS,
    method: 'POST',
    body: JSON.stringify(BUYER),
  });
  if (has('post', '/api/shop/checkout') && listings.length > 0) {
    const { bodies, auth } = await checkoutBodies(base, listings);
    out.checkout = await load({
      url: `${base}/api/shop/checkout`,
      connections,
      durationS,
      method: 'POST',
      bodies,
      headers: { authorization: auth },
    });
  } else out.checkout = missing('POST /api/shop/checkout');
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
