import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, newUser, useSandbox } from './support/client.js';
import { buyableListing, checkoutBody } from './support/shop.js';

// Interface document, "5. Authentication", rule by rule.
const ctx = useSandbox();
const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, number>;
const buyerToken = () => logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);

/** The operations the document marks "authentication required", each with a body that is otherwise valid. */
const REQUIRED: [string, string, unknown?][] = [
  ['POST', '/api/shop/listings', { type: 'mall', title: 'Lamp', category: 'home-garden', price_cents: 100 }],
  ['GET', '/api/shop/subscriptions/my-plan'],
  [
    'POST',
    '/api/shop/subscriptions/subscribe',
    { planId: 'basic', billingCycle: 'monthly', paymentMethod: 'credit_wallet', currency: 'USD' },
  ],
  ['GET', '/api/wallet/balance'],
];

/** The public reads of rule 5, with a path that exists in the seed. */
const PUBLIC = [
  '/api/shop/listings',
  '/api/shop/categories',
  '/api/shop/stores/sandbox-seller',
  '/api/wallet/exchange-rates',
  '/locales/shop-en.json',
  '/api/shop/subscriptions/plans',
];

describe('5. Authentication', () => {
  it('"1. Requests authenticate with the header Authorization: Bearer <ACCESS_TOKEN>."', async () => {
    const res = await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', {
      token: await buyerToken(),
    });
    expect([res.status, res.body.balance_cents]).toEqual([200, 100_000]);
  });

  it('"2. POST /api/auth/login returns a JWT in token. The token expires 24 hours after issue." (exp − iat)', async () => {
    const { iat, exp } = claims(await buyerToken());
    expect(exp - iat).toBe(24 * 3600);
  });

  it('"The token expires 24 hours after issue.": it works until then, and is 401 "Invalid or expired token" after (sandbox clock)', async () => {
    const token = await buyerToken();
    await ctx.sandbox.clock.advance('23h59m');
    expect((await ctx.api.get('/api/wallet/balance', { token })).status).toBe(200);
    await ctx.sandbox.clock.advance('2m');
    expectError(await ctx.api.get('/api/wallet/balance', { token }), 401, 'Invalid or expired token');
  });

  it('"The token expires 24 hours after issue.": a client library that checks exp against its own clock accepts a fresh token', async () => {
    const { iat, exp } = claims(await buyerToken());
    const now = Date.now() / 1000;
    expect(Math.abs(iat - now), `iat ${new Date(iat * 1000).toISOString()}`).toBeLessThan(60);
    expect(exp).toBeGreaterThan(now + 23 * 3600);
  });

  it('"3. … A key is sent either as Authorization: Bearer <API_KEY> or as the query parameter api_key=<API_KEY>." (keys made in Settings: sandbox choice POST /api/settings/api-keys)', async () => {
    const made = await ctx.api.post<{ key: string }>(
      '/api/settings/api-keys',
      { name: 'conformance' },
      { token: await buyerToken() },
    );
    expect(made.status, made.text).toBe(201);
    const header = await ctx.api.get('/api/wallet/balance', { token: made.body.key });
    const query = await ctx.api.get('/api/wallet/balance', { query: { api_key: made.body.key } });
    expect([header.status, query.status]).toEqual([200, 200]);
  });

  it('"4. API keys give a higher rate limit (see Limits).": with the address\'s 100 used up, a key goes on', async () => {
    await ctx.sandbox.clock.freeze(); // one fixed rate-limit window (docs/control-api.md)
    for (let i = 0; i < 100; i++) await ctx.api.get('/api/shop/categories');
    expectError(await ctx.api.get('/api/shop/categories'), 429, 'Too many requests');
    expect((await ctx.api.get('/api/shop/categories', { token: accounts.buyer.key })).status).toBe(200);
  });

  it('"5. Endpoints marked \'authentication required\' above need a credential.": without one, 401 (the text: 07-errors)', async () => {
    const listing = await buyableListing(ctx.api);
    for (const [method, path, body] of [
      ...REQUIRED,
      ['POST', '/api/shop/checkout', checkoutBody(listing.id)] as const,
    ]) {
      const res = await ctx.api.request(method, path, { body });
      expectError(res, 401);
    }
  });

  it('"5. … need a credential.": the credential is checked before the body (a bad body without credential is a 401)', async () => {
    for (const [method, path] of REQUIRED.filter(([m]) => m === 'POST')) {
      expect([path, (await ctx.api.request(method, path, { body: { nonsense: true } })).status]).toEqual([
        path,
        401,
      ]);
    }
    expect((await ctx.api.post('/api/shop/checkout', {}, { token: 'not-a-token' })).status).toBe(401);
  });

  it('"Browsing listings, categories, stores, exchange rates, locale files and the plan list are public."', async () => {
    for (const path of PUBLIC) expect([path, (await ctx.api.get(path)).status]).toEqual([path, 200]);
  });

  it('"… are public.": a stale or bad credential sent along with a public read is answered as anonymous', async () => {
    const expired = await buyerToken();
    await ctx.sandbox.clock.advance('25h');
    for (const token of [expired, 'not-a-token', 'mk_test_unknown_key']) {
      for (const path of PUBLIC)
        expect([path, (await ctx.api.get(path, { token })).status]).toEqual([path, 200]);
    }
    // The same key as "the query parameter api_key=<API_KEY>" (5.3), and an X-Guest-Token (5.6).
    for (const path of PUBLIC) {
      const query = { api_key: 'mk_test_unknown_key' };
      expect([path, (await ctx.api.get(path, { query })).status]).toEqual([path, 200]);
      const headers = { 'X-Guest-Token': 'not-a-token' };
      expect([path, (await ctx.api.get(path, { headers })).status]).toEqual([path, 200]);
    }
  });

  it('"6. A header X-Guest-Token exists. Its meaning, issuance and the endpoints accepting it: not shown." (sandbox choice: a guest may use a cart, not check out)', async () => {
    const guest = await ctx.api.post<{ guestToken: string }>('/api/auth/guest', {});
    expect(guest.status).toBe(201);
    const headers = { 'X-Guest-Token': guest.body.guestToken };
    expect((await ctx.api.get('/api/shop/cart', { headers })).status).toBe(200);
    const listing = await buyableListing(ctx.api);
    expect((await ctx.api.post('/api/shop/checkout', checkoutBody(listing.id), { headers })).status).toBe(
      401,
    );
  });

  it('"7. Token refresh, logout and key-management endpoints: not shown." (sandbox choice: keys listed and revoked under /api/settings/api-keys)', async () => {
    const user = await newUser(ctx.api);
    const made = await ctx.api.post<{ id: string; key: string }>(
      '/api/settings/api-keys',
      { name: 'short-lived' },
      { token: user.token },
    );
    const listed = await ctx.api.get<{ api_keys: { id: string }[] }>('/api/settings/api-keys', {
      token: user.token,
    });
    expect(listed.body.api_keys.map((k) => k.id)).toContain(made.body.id);
    expect(
      (await ctx.api.delete(`/api/settings/api-keys/${made.body.id}`, { token: user.token })).status,
    ).toBe(200);
    expectError(
      await ctx.api.get('/api/wallet/balance', { token: made.body.key }),
      401,
      'Invalid or expired token',
    );
  });
});
