import { describe, expect, it } from 'vitest';
import { accounts, logIn, useSandbox } from './support/client.js';
import { BALANCE_FIELDS, CATEGORY_FIELDS, fieldProblems, isUuid, STORE_FIELDS } from './support/document.js';
import { buyableListing, checkoutBody, type Search } from './support/shop.js';

// Interface document, "2. Resources and their fields": Category, Store, Subscription plan and usage,
// Wallet balance, Exchange rates, Cart item and shipping address (User and Listing: 02-resources-listing.test.ts).
const ctx = useSandbox();
const buyer = () => logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);

describe('2. Category, Store', () => {
  it('"| slug | string | e.g. electronics |" … "| icon | string | emoji |": every field of the Category table has its type', async () => {
    const res = await ctx.api.get<{ categories: Record<string, unknown>[] }>('/api/shop/categories');
    for (const c of res.body.categories) {
      expect(fieldProblems(c, CATEGORY_FIELDS, String(c.slug))).toEqual([]);
      expect(c.icon).toMatch(/\p{Extended_Pictographic}/u);
    }
  });

  it('"count | integer | listing count" and "subcategory_count | integer" match what the endpoints list', async () => {
    const res = await ctx.api.get<{
      categories: { slug: string; count: number; subcategory_count: number }[];
    }>('/api/shop/categories');
    for (const c of res.body.categories.slice(0, 5)) {
      const listed = await ctx.api.get<Search>('/api/shop/listings', {
        query: { category: c.slug, limit: 1 },
      });
      const subs = await ctx.api.get<{ subcategories: unknown[] }>(
        `/api/shop/categories/subcategories/${c.slug}`,
      );
      expect([c.slug, listed.body.pagination.total, subs.body.subcategories.length]).toEqual([
        c.slug,
        c.count,
        c.subcategory_count,
      ]);
    }
  });

  it('"name | string | translated when lang is given"', async () => {
    const en = await ctx.api.get<{ categories: { name: string }[] }>('/api/shop/categories');
    const ja = await ctx.api.get<{ categories: { name: string }[] }>('/api/shop/categories', {
      query: { lang: 'ja' },
    });
    en.body.categories.forEach((c, i) => expect(ja.body.categories[i].name).not.toBe(c.name));
  });

  it('"| store_name | string |", "| slug | string |", "| description | string |": every field of the Store table is a string', async () => {
    const res = await ctx.api.get<{ store: unknown }>('/api/shop/stores/sandbox-seller');
    expect(fieldProblems(res.body.store, STORE_FIELDS, 'store')).toEqual([]);
  });
});

describe('2. Subscription plan and usage, wallet balance, exchange rates, cart item', () => {
  it('"plan_name | string", "limits.featuredListings | integer", "usage.currentFeatured | integer"', async () => {
    const token = await logIn(ctx.api, accounts.subscriber.email, accounts.subscriber.password);
    const res = await ctx.api.get<{
      plan_name: unknown;
      limits: { featuredListings: unknown };
      usage: { currentFeatured: unknown };
    }>('/api/shop/subscriptions/my-plan', { token });
    expect(typeof res.body.plan_name).toBe('string');
    expect(Number.isInteger(res.body.limits.featuredListings)).toBe(true);
    expect(Number.isInteger(res.body.usage.currentFeatured)).toBe(true);
  });

  it('"balance_cents | integer" and "balance_usd | string | decimal with two places", the same amount', async () => {
    const res = await ctx.api.get<{ balance_cents: number; balance_usd: string }>('/api/wallet/balance', {
      token: await buyer(),
    });
    expect(fieldProblems(res.body, BALANCE_FIELDS, 'balance')).toEqual([]);
    expect(res.body.balance_usd).toMatch(/^\d+\.\d{2}$/);
    expect(res.body.balance_usd).toBe((res.body.balance_cents / 100).toFixed(2));
  });

  it('"rates | object | key: currency code; value: object with rate (number)" and "updated_at | string | timestamp"', async () => {
    const res = await ctx.api.get<{ rates: Record<string, { rate: unknown }>; updated_at: string }>(
      '/api/wallet/exchange-rates',
    );
    for (const [code, value] of Object.entries(res.body.rates)) {
      expect([code, typeof value.rate]).toEqual([code, 'number']);
      expect(Number.isFinite(value.rate) && (value.rate as number) > 0, code).toBe(true);
    }
    expect(Number.isNaN(Date.parse(res.body.updated_at))).toBe(false);
  });

  it('"Cart item: listing_id (string, UUID), quantity (integer)." (the cart of 4.19, openapi.yaml `Cart`)', async () => {
    const token = await buyer();
    const listing = await buyableListing(ctx.api);
    await ctx.api.post('/api/shop/cart', { listingId: listing.id, quantity: 2 }, { token });
    const cart = await ctx.api.get<{ items: { listing_id: unknown; quantity: unknown }[] }>(
      '/api/shop/cart',
      { token },
    );
    expect(cart.body.items).toHaveLength(1);
    expect(isUuid(cart.body.items[0].listing_id)).toBe(true);
    expect(cart.body.items[0].quantity).toBe(2);
  });

  it('"Order record fields: not shown." (sandbox choice, openapi.yaml `getOrder`: GET /api/shop/orders/{id})', async () => {
    const token = await buyer();
    const listing = await buyableListing(ctx.api);
    const paid = await ctx.api.post<{ orderId: string }>('/api/shop/checkout', checkoutBody(listing.id), {
      token,
    });
    const order = await ctx.api.get<Record<string, unknown>>(`/api/shop/orders/${paid.body.orderId}`, {
      token,
    });
    for (const field of [
      'id',
      'status',
      'items',
      'subtotal_cents',
      'shipping_cents',
      'platform_fee_cents',
      'total_cents',
    ]) {
      expect(order.body, field).toHaveProperty(field);
    }
    expect(order.body).toMatchObject({ paymentMethod: 'credit_wallet', status: 'paid' });
  });
});
