import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, newUser, useSandbox } from './support/client.js';
import { DURATIONS, LISTING_TYPES } from './support/document.js';
import { createListing, PNG, type Listing } from './support/shop.js';
import { checkedFetch } from '../helpers/checked-clients.js';

// Interface document, 4.9 POST /api/shop/listings (authentication required) and 4.10 image upload.
const ctx = useSandbox();
const as = (who: keyof typeof accounts) => logIn(ctx.api, accounts[who].email, accounts[who].password);
const balance = async (token: string) =>
  (await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', { token })).body.balance_cents;
const featuredInUse = async (token: string) =>
  (await ctx.api.get<{ usage: { currentFeatured: number } }>('/api/shop/subscriptions/my-plan', { token }))
    .body.usage.currentFeatured;

describe('4.9 request fields', () => {
  it('"type", "title", "category": each is required', async () => {
    const token = await as('seller');
    for (const missing of ['type', 'title', 'category']) {
      const body: Record<string, unknown> = {
        type: 'mall',
        title: 'Lamp',
        category: 'home-garden',
        price_cents: 100,
      };
      delete body[missing];
      expectError(await ctx.api.post('/api/shop/listings', body, { token }), 400);
    }
  });

  it('"type | string | yes | mall, classifieds, auction, reverse_auction": another value is refused', async () => {
    expectError(await createListing(ctx.api, await as('seller'), { type: 'barter' }), 400);
  });

  it('"category | string | yes | slug from the categories endpoint": an unknown slug is refused', async () => {
    expectError(await createListing(ctx.api, await as('seller'), { category: 'not-a-category' }), 400);
  });

  it('"price_cents | number | depends on type | 0 for free items" (sandbox choice: mall, classifieds, auction need it; reverse_auction may omit it)', async () => {
    const token = await as('seller');
    for (const type of LISTING_TYPES) {
      const free = await createListing(ctx.api, token, { type, price_cents: 0 });
      expect([type, free.status, free.body.price_cents]).toEqual([type, 201, 0]);
    }
    const { price_cents: _omitted, ...withoutPrice } = {
      type: 'reverse_auction',
      title: 'Wanted: piano',
      category: 'music-instruments',
      price_cents: 0,
    };
    expect((await ctx.api.post('/api/shop/listings', withoutPrice, { token })).status).toBe(201);
  });

  it('"| price_cents | number | depends on type | 0 for free items |": a type that needs a price, sent without one, is refused ("| 400 | Bad Request | Amount required |", its text checked in 07-errors)', async () => {
    const token = await as('seller');
    for (const type of ['mall', 'classifieds', 'auction']) {
      expectError(
        await ctx.api.post(
          '/api/shop/listings',
          { type, title: 'No price', category: 'home-garden' },
          { token },
        ),
        400,
      );
    }
  });

  it('"duration | string | no | 1day, 2weeks, 1year; default 2weeks": each value is kept, another refused', async () => {
    const token = await as('seller');
    for (const duration of DURATIONS)
      expect((await createListing(ctx.api, token, { duration })).body.duration).toBe(duration);
    expectError(await createListing(ctx.api, token, { duration: '3days' }), 400);
  });

  it('"quantity_available | number | no | default 1", "currency … default USD", "accepted_currencies … default ["USD"]", as sent when sent', async () => {
    const token = await as('seller');
    const sent = await createListing(ctx.api, token, {
      quantity_available: 7,
      currency: 'EUR',
      accepted_currencies: ['EUR', 'USD'],
    });
    expect(sent.body).toMatchObject({
      quantity_available: 7,
      currency: 'EUR',
      accepted_currencies: ['EUR', 'USD'],
    });
  });

  it('"featured_payment_method | string or null" (section 2): a client may send back the null it read', async () => {
    const res = await createListing(ctx.api, await as('seller'), {
      is_featured: false,
      featured_payment_method: null,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ is_featured: false, featured_payment_method: null });
  });

  it('"Response body: not shown." (sandbox choice: 201 with the listing, readable at once)', async () => {
    const res = await createListing(ctx.api, await as('seller'), { title: 'Brass desk lamp' });
    expect(res.status).toBe(201);
    const read = await ctx.api.get<Listing>(`/api/shop/listings/${res.body.id}`);
    expect(read.body.title).toBe('Brass desk lamp');
  });
});

describe('4.9 featured rules', () => {
  it('"featured_payment_method | string | required when is_featured is true"', async () => {
    expectError(await createListing(ctx.api, await as('seller'), { is_featured: true }), 400);
  });

  it('"a user with a subscription gets free featured slots up to the plan\'s limits.featuredListings"', async () => {
    const token = await as('subscriber');
    const [before, used] = [await balance(token), await featuredInUse(token)];
    const res = await createListing(ctx.api, token, {
      is_featured: true,
      featured_payment_method: 'subscription',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ is_featured: true, featured_payment_method: 'subscription' });
    expect([await balance(token), await featuredInUse(token)]).toEqual([before, used + 1]);
  });

  it('"… free featured slots up to the plan\'s limits.featuredListings": a subscriber whose slots are all used is refused (the text: 07-errors)', async () => {
    const res = await createListing(ctx.api, await as('maxed'), {
      is_featured: true,
      featured_payment_method: 'subscription',
    });
    expectError(res, 403);
  });

  it('"others pay with … credit_wallet": "1 Credit-USD from the wallet" (100 cents), and the listing is featured', async () => {
    const token = await as('buyer');
    const before = await balance(token);
    const res = await createListing(ctx.api, token, {
      is_featured: true,
      featured_payment_method: 'credit_wallet',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ is_featured: true, featured_payment_method: 'credit_wallet' });
    expect(before - (await balance(token))).toBe(100);
  });

  it('"others pay with payprovider": "A price of 1.00 USD" at the provider (sandbox choice: featured once approved)', async () => {
    const token = await as('buyer');
    const before = await balance(token);
    const res = await createListing(ctx.api, token, {
      is_featured: true,
      featured_payment_method: 'payprovider',
    });
    const approvalUrl = String(res.body.approvalUrl);
    expect([res.status, new URL(approvalUrl).protocol]).toEqual([201, 'http:']);
    const paymentId = approvalUrl.split('/').pop() as string;
    const payment = await ctx.api.get<{ payment: { amount_cents: number } }>(
      `/__sandbox/payprovider/${paymentId}`,
    );
    expect(payment.body.payment.amount_cents).toBe(100);
    await ctx.api.post(`/__sandbox/payprovider/${paymentId}/approve`, {});
    const read = await ctx.api.get<Listing>(`/api/shop/listings/${res.body.id}`);
    expect(read.body).toMatchObject({ is_featured: true, featured_payment_method: 'payprovider' });
    expect(await balance(token)).toBe(before);
  });

  it('"a user with a subscription gets free featured slots up to the plan\'s limits.featuredListings": a user without a plan who asks for a subscription slot is refused ("| 403 | Forbidden | Not authorized |", checked in 07-errors)', async () => {
    const user = await newUser(ctx.api);
    const res = await createListing(ctx.api, user.token, {
      is_featured: true,
      featured_payment_method: 'subscription',
    });
    expectError(res, 403);
  });
});

describe('4.10 image upload at /api/shop/upload', () => {
  it('"Called before creating a listing; returns values placed into images. Method and payload: not shown." (sandbox choice: multipart field images → {urls})', async () => {
    const token = await as('seller');
    const form = new FormData();
    form.append('images', new Blob([PNG], { type: 'image/png' }), 'a.png');
    form.append('images', new Blob([PNG], { type: 'image/png' }), 'b.png');
    const upload = await checkedFetch(`${ctx.api.base}/api/shop/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const { urls } = (await upload.json()) as { urls: string[] };
    expect([upload.status, urls.length]).toEqual([201, 2]);
    const created = await createListing(ctx.api, token, { images: urls });
    expect([created.status, created.body.images]).toEqual([201, urls]);
  });

  it('"images | string[] | no | URLs from the upload endpoint": a URL that was not uploaded is refused', async () => {
    const res = await createListing(ctx.api, await as('seller'), {
      images: ['https://example.com/elsewhere.png'],
    });
    expectError(res, 400);
  });
});
