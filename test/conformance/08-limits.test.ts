import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, useSandbox } from './support/client.js';
import { LANGUAGES } from './support/document.js';
import { createListing, type Listing, type Search } from './support/shop.js';

// Interface document, "8. Limits", row by row. "Whether the 100 and 1000 limits are per credential
// or per address, and the rate-limit headers and retry timing: not shown." The sandbox's choice
// (README.md, "Flags" and "Control API"; openapi.yaml `RateLimit` headers): per API key when one is sent, else per address.
const ctx = useSandbox();

/** Sends `count` requests, 20 at a time; returns the statuses. */
async function burst(count: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - sent) }, send));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

describe('8. Limits', () => {
  it('"Requests per minute (general statement) | 100": the 101st request of a minute is 429', async () => {
    await ctx.sandbox.clock.freeze(); // one fixed window on the sandbox clock (docs/control-api.md)
    const statuses = await burst(100, () => ctx.api.get('/api/shop/categories'));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expectError(await ctx.api.get('/api/shop/categories'), 429, 'Too many requests');
  });

  it('"Requests per minute with an API key | 1000": the 1001st request with a key is 429', async () => {
    await ctx.sandbox.clock.freeze();
    const statuses = await burst(1000, () =>
      ctx.api.get('/api/shop/categories', { token: accounts.buyer.key }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expectError(
      await ctx.api.get('/api/shop/categories', { token: accounts.buyer.key }),
      429,
      'Too many requests',
    );
  });

  it('"| Requests per minute (general statement) | 100 |": per minute, so a minute later the address may send again (sandbox clock)', async () => {
    await ctx.sandbox.clock.freeze();
    await burst(101, () => ctx.api.get('/api/shop/categories'));
    expect((await ctx.api.get('/api/shop/categories')).status).toBe(429);
    await ctx.sandbox.clock.advance('61s');
    expect((await ctx.api.get('/api/shop/categories')).status).toBe(200);
  });

  it('"Page size default / maximum | 12 / 50"', async () => {
    const byDefault = await ctx.api.get<Search>('/api/shop/listings');
    const most = await ctx.api.get<Search>('/api/shop/listings', { query: { limit: 50 } });
    const over = await ctx.api.get<Search>('/api/shop/listings', { query: { limit: 51 } });
    expect([byDefault.body.listings.length, most.body.listings.length]).toEqual([12, 50]);
    expect([over.status, over.body?.pagination?.limit]).toEqual([200, 50]);
  });

  it('"Minimum password length at registration | 8 characters"', async () => {
    const short = await ctx.api.post('/api/auth/register', {
      email: 'short@example.com',
      password: '7chars!',
    });
    const enough = await ctx.api.post('/api/auth/register', {
      email: 'enough@example.com',
      password: '8chars!!',
    });
    expect([short.status, enough.status]).toEqual([400, 201]);
  });

  it('"Token lifetime | 24 hours"', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const { iat, exp } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
      string,
      number
    >;
    expect(exp - iat).toBe(86_400);
    await ctx.sandbox.clock.advance('24h');
    expectError(await ctx.api.get('/api/wallet/balance', { token }), 401, 'Invalid or expired token');
  });

  it('"Exchange-rate refresh | every 30 minutes" (sandbox clock)', async () => {
    const read = async () =>
      (await ctx.api.get<{ updated_at: string }>('/api/wallet/exchange-rates')).body.updated_at;
    await ctx.sandbox.clock.freeze();
    const first = Date.parse(await read());
    await ctx.sandbox.clock.advance('30m');
    expect(Date.parse(await read()) - first).toBe(30 * 60_000);
  });

  it('"Featured listings | per plan, limits.featuredListings": a subscriber features exactly up to the limit', async () => {
    const token = await logIn(ctx.api, accounts.subscriber.email, accounts.subscriber.password);
    const plan = await ctx.api.get<{
      limits: { featuredListings: number };
      usage: { currentFeatured: number };
    }>('/api/shop/subscriptions/my-plan', { token });
    const free = plan.body.limits.featuredListings - plan.body.usage.currentFeatured;
    const featured = { is_featured: true, featured_payment_method: 'subscription' };
    for (let i = 0; i < free; i++) expect((await createListing(ctx.api, token, featured)).status).toBe(201);
    expect((await createListing(ctx.api, token, featured)).status).toBe(403);
  });

  // Which titles are translated is not shown; the sandbox's choice (docs/catalog.md, "Translations"):
  // a title it knows whole (an item template's title, a vocabulary item) in all 16 other languages,
  // any other title kept as written in every language, never half translated.
  it('"Languages for automatic title translation | 16": a title the sandbox knows whole comes back in the 16 other codes, any other as written (docs/catalog.md)', async () => {
    const token = await logIn(ctx.api, accounts.seller.email, accounts.seller.password);
    const titlesOf = async (title: string) => {
      const created = await createListing(ctx.api, token, { title, category: 'home-garden' });
      const titles = new Map<string, string>();
      for (const lang of LANGUAGES) {
        const read = await ctx.api.get<Listing>(`/api/shop/listings/${created.body.id}`, { query: { lang } });
        titles.set(lang, read.body.title);
      }
      return titles;
    };
    const known = await titlesOf('Lamp');
    expect(known.get('en')).toBe('Lamp');
    expect(LANGUAGES.filter((lang) => known.get(lang) !== 'Lamp')).toHaveLength(16);
    const unknown = await titlesOf('Blue wooden table');
    expect(LANGUAGES.filter((lang) => unknown.get(lang) !== 'Blue wooden table')).toEqual([]);
  });
});
