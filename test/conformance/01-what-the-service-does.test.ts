import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index.js';
import { accounts, Api, logIn, newUser, useSandbox } from './support/client.js';
import { isIso, isUuid, LISTING_TYPES } from './support/document.js';
import { buyableListing, checkoutBody, type Listing, type Search } from './support/shop.js';

// Interface document, the preamble and "1. What the service does", sentence by sentence.
const ctx = useSandbox();

describe('preamble: addresses', () => {
  it('"A second base address, {alt_base_url}, serves the same paths." (sandbox choice: --alt-port)', async () => {
    const sandbox = await startSandbox({ altPort: 0 });
    try {
      const main = new Api(sandbox.url);
      const alt = new Api(sandbox.altUrl as string);
      const token = await logIn(main, accounts.seller.email, accounts.seller.password);
      const created = await main.post<Listing>(
        '/api/shop/listings',
        { type: 'mall', title: 'Alt address lamp', category: 'home-garden', price_cents: 1234 },
        { token },
      );
      expect(created.status).toBe(201);
      // Same paths, same state: the listing made on one address is read, with the same token, on the other.
      const read = await alt.get<Listing>(`/api/shop/listings/${created.body.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.title).toBe('Alt address lamp');
    } finally {
      await sandbox.close();
    }
  });

  it('"All paths below start with /api unless stated otherwise, except the locale files, which start with /locales."', async () => {
    expect((await ctx.api.get('/api/shop/listings')).status).toBe(200);
    expect((await ctx.api.get('/locales/shop-en.json')).status).toBe(200);
  });
});

describe('1. What the service does', () => {
  it('"Users register, log in and reset passwords."', async () => {
    const user = await newUser(ctx.api);
    expect(user.token.split('.')).toHaveLength(3);
    const forgot = await ctx.api.post('/api/auth/forgot-password', { email: user.email });
    expect(forgot.status).toBe(200);
    // The sandbox sends no e-mail: the reset token is in its mailbox (openapi.yaml `forgotPassword` and `getMailbox`; README.md, "Control API").
    const mail = await ctx.api.get<{ messages: { token: string }[] }>('/__sandbox/mailbox', {
      query: { to: user.email },
    });
    expect(mail.status).toBe(200);
    const reset = await ctx.api.post('/api/auth/reset-password', {
      token: mail.body.messages[0].token,
      password: 'a-brand-new-password',
    });
    expect(reset.status).toBe(200);
    await logIn(ctx.api, user.email, 'a-brand-new-password');
  });

  it('"Sellers create listings of four types: mall, classifieds, auction, reverse_auction."', async () => {
    const token = await logIn(ctx.api, accounts.seller.email, accounts.seller.password);
    for (const type of LISTING_TYPES) {
      const res = await ctx.api.post<Listing>(
        '/api/shop/listings',
        { type, title: `A ${type} listing`, category: 'electronics', price_cents: 1000 },
        { token },
      );
      expect([type, res.status], res.text).toEqual([type, 201]);
      expect(res.body.type).toBe(type);
    }
  });

  it('"Anyone can browse listings with search, filters, sorting, pagination and location search."', async () => {
    const query = { q: 'lamp', type: 'mall', category: 'home-garden', sort: 'price_low', page: 1, limit: 5 };
    const res = await ctx.api.get<Search>('/api/shop/listings', { query });
    expect(res.status, res.text).toBe(200);
    const near = await ctx.api.get<Search>('/api/shop/listings', {
      query: { lat: 52.52, lng: 13.405, radius: 50 },
    });
    expect(near.status, near.text).toBe(200);
  });

  it('"Categories, subcategories, stores, and translated titles, descriptions and category names are exposed."', async () => {
    const categories = await ctx.api.get<{ categories: { slug: string; name: string }[] }>(
      '/api/shop/categories',
      {
        query: { lang: 'de' },
      },
    );
    expect(categories.status).toBe(200);
    const first = categories.body.categories[0];
    expect((await ctx.api.get(`/api/shop/categories/subcategories/${first.slug}`)).status).toBe(200);
    expect((await ctx.api.get('/api/shop/stores/sandbox-seller')).status).toBe(200);
    const english = await ctx.api.get<{ categories: { name: string }[] }>('/api/shop/categories');
    expect(categories.body.categories.map((c) => c.name)).not.toEqual(
      english.body.categories.map((c) => c.name),
    );
  });

  it('"Each user has a wallet with a balance." (a newly registered user too)', async () => {
    const user = await newUser(ctx.api);
    const res = await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.balance_cents).toBe(0);
  });

  it('"Exchange rates are exposed for 84 wallet currencies and fiat pairs."', async () => {
    const res = await ctx.api.get<{ rates: Record<string, { rate: number }> }>('/api/wallet/exchange-rates');
    expect(res.status).toBe(200);
    const wallet = Object.keys(res.body.rates).filter((code) => code.startsWith('Credit-'));
    expect(wallet).toHaveLength(84);
  });

  it('"Buyers check out with the wallet first and an external payment provider as fallback."', async () => {
    const listing = await buyableListing(ctx.api);
    const order = checkoutBody(listing.id);
    const paid = await ctx.api.post<{ paymentMethod: string }>('/api/shop/checkout', order, {
      token: await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password),
    });
    expect([paid.status, paid.body.paymentMethod]).toEqual([200, 'credit_wallet']);
    const fallback = await ctx.api.post<{ paymentMethod: string }>('/api/shop/checkout', order, {
      token: await logIn(ctx.api, accounts.broke.email, accounts.broke.password),
    });
    expect([fallback.status, fallback.body.paymentMethod]).toEqual([200, 'payprovider']);
  });

  it('"Users subscribe to plans. Plans grant a number of featured (top-of-search) listing slots."', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const res = await ctx.api.post(
      '/api/shop/subscriptions/subscribe',
      {
        planId: 'basic',
        billingCycle: 'monthly',
        paymentMethod: 'credit_wallet',
        currency: 'USD',
      },
      { token },
    );
    expect(res.status, res.text).toBe(200);
    const plan = await ctx.api.get<{ limits: { featuredListings: number } }>(
      '/api/shop/subscriptions/my-plan',
      {
        token,
      },
    );
    expect(plan.body.limits.featuredListings).toBeGreaterThan(0);
    // Top of search: a listing featured with the plan's slot comes before every unfeatured one.
    const created = await ctx.api.post<Listing>(
      '/api/shop/listings',
      {
        type: 'mall',
        title: 'Featuredconformance lamp',
        category: 'home-garden',
        price_cents: 500,
        is_featured: true,
        featured_payment_method: 'subscription',
      },
      { token },
    );
    expect(created.status, created.text).toBe(201);
    const search = await ctx.api.get<{ listings: { id: string; is_featured: boolean }[] }>(
      '/api/shop/listings',
      {
        query: { category: 'home-garden', limit: 50 },
      },
    );
    const firstUnfeatured = search.body.listings.findIndex((l) => !l.is_featured);
    const ours = search.body.listings.findIndex((l) => l.id === created.body.id);
    expect(ours).toBeGreaterThanOrEqual(0);
    expect(firstUnfeatured).toBeGreaterThanOrEqual(0);
    expect(ours).toBeLessThan(firstUnfeatured);
  });

  it('"UI translation strings are served per language."', async () => {
    const de = await ctx.api.get<Record<string, string>>('/locales/shop-de.json');
    const en = await ctx.api.get<Record<string, string>>('/locales/shop-en.json');
    expect([de.status, en.status]).toEqual([200, 200]);
    expect(de.body).not.toEqual(en.body);
  });
});

describe('1. Conventions', () => {
  it('"1. Request and response bodies are JSON (Content-Type: application/json)."', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const replies = [
      await ctx.api.get('/api/shop/listings'),
      await ctx.api.get('/api/shop/categories'),
      await ctx.api.get('/api/wallet/balance', { token }),
      await ctx.api.get('/api/shop/listings/00000000-0000-4000-8000-000000000000'),
      await ctx.api.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password' }),
    ];
    for (const reply of replies) {
      expect(reply.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(() => JSON.parse(reply.text)).not.toThrow();
    }
  });

  it('"2. All timestamps are ISO 8601."', async () => {
    const search = await ctx.api.get<Search>('/api/shop/listings', { query: { limit: 50 } });
    for (const listing of search.body.listings)
      expect(isIso(listing.created_at), listing.created_at).toBe(true);
    const rates = await ctx.api.get<{ updated_at: string }>('/api/wallet/exchange-rates');
    expect(isIso(rates.body.updated_at), rates.body.updated_at).toBe(true);
  });

  it('"3. All amounts are integer cents, except the query parameters minPrice and maxPrice (dollars)."', async () => {
    const search = await ctx.api.get<Search>('/api/shop/listings', { query: { limit: 50 } });
    for (const l of search.body.listings)
      expect(Number.isInteger(l.price_cents), String(l.price_cents)).toBe(true);
    // minPrice=10 and maxPrice=20 are dollars: a USD listing between them costs 1000 to 2000 cents.
    const dollars = await ctx.api.get<Search>('/api/shop/listings', {
      query: { currency: 'USD', minPrice: 10, maxPrice: 20, limit: 50 },
    });
    expect(dollars.status).toBe(200);
    expect(dollars.body.listings.length).toBeGreaterThan(0);
    for (const l of dollars.body.listings)
      expect(l.price_cents).toSatisfy((c: number) => c >= 1000 && c <= 2000);
  });

  it('"4. Identifiers of records are UUID strings."', async () => {
    const login = await ctx.api.post<{ user: { id: string } }>('/api/auth/login', {
      email: accounts.buyer.email,
      password: accounts.buyer.password,
    });
    expect(isUuid(login.body.user.id), login.body.user.id).toBe(true);
    const search = await ctx.api.get<Search>('/api/shop/listings', { query: { limit: 50 } });
    for (const listing of search.body.listings) expect(isUuid(listing.id), listing.id).toBe(true);
  });
});
