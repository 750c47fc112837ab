import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, useSandbox } from './support/client.js';
import { buyableListing, type Listing } from './support/shop.js';

// Interface document, 4.19 cart endpoint and 4.20 assistant endpoint.
const ctx = useSandbox();

type Cart = { items: { listing_id: string; quantity: number }[] };

describe('4.19 Cart endpoint (sandbox choice: POST/GET /api/shop/cart, DELETE /api/shop/cart/{listingId})', () => {
  it('"An endpoint takes a body with listingId (string, UUID) and quantity (integer).": add, change, and 0 removes', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const listing = await buyableListing(ctx.api);
    const put = (quantity: number) =>
      ctx.api.post<Cart>('/api/shop/cart', { listingId: listing.id, quantity }, { token });
    expect((await put(1)).body.items).toEqual([
      expect.objectContaining({ listing_id: listing.id, quantity: 1 }),
    ]);
    expect((await put(2)).body.items).toEqual([
      expect.objectContaining({ listing_id: listing.id, quantity: 2 }),
    ]);
    const read = await ctx.api.get<Cart>('/api/shop/cart', { token });
    expect(read.body.items.map((i) => [i.listing_id, i.quantity])).toEqual([[listing.id, 2]]);
    expect((await put(0)).body.items).toEqual([]);
  });

  it('"| 404 | Not Found | Listing not found |" (7): a listingId that names no listing', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const res = await ctx.api.post(
      '/api/shop/cart',
      { listingId: '6d1f0a6e-0000-4000-8000-000000000000', quantity: 1 },
      { token },
    );
    expectError(res, 404, 'Listing not found');
  });

  it('"A header X-Guest-Token exists. Its meaning, issuance and the endpoints accepting it: not shown." (5.6): the cart works with it (sandbox choice: POST /api/auth/guest issues one)', async () => {
    const guest = await ctx.api.post<{ guestToken: string }>('/api/auth/guest', {});
    const headers = { 'X-Guest-Token': guest.body.guestToken };
    const listing = await buyableListing(ctx.api);
    const res = await ctx.api.post<Cart>(
      '/api/shop/cart',
      { listingId: listing.id, quantity: 1 },
      { headers },
    );
    expect(res.status, res.text).toBe(200);
    expect((await ctx.api.get<Cart>('/api/shop/cart', { headers })).body.items).toHaveLength(1);
  });
});

describe('4.20 Assistant endpoint (sandbox choice: POST /api/shop/assistant → {reply, listings})', () => {
  it('"An endpoint takes a body with message (string) and history (array)."', async () => {
    const res = await ctx.api.post<{ reply: string; listings: Listing[] }>('/api/shop/assistant', {
      message: 'I am looking for a lamp',
      history: [{ role: 'user', content: 'hello' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(typeof res.body.reply).toBe('string');
    expect(res.body.listings.length).toBeGreaterThan(0);
    expect(res.body.listings.every((l) => /lamp/i.test(`${l.title} ${l.description ?? ''}`))).toBe(true);
  });

  it('"An endpoint takes a body with message (string) and history (array).": a body without message is refused with "one field: error (string)" (7)', async () => {
    expectError(await ctx.api.post('/api/shop/assistant', { history: [] }), 400);
  });
});
