import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, freeze, keyOf, ledgerSum, userIdOf } from './helpers.js';

const subscribe = (sb: Awaited<ReturnType<typeof makeSandbox>>, who: 'buyer' | 'broke', body: object) =>
  sb.http.post('/api/shop/subscriptions/subscribe').set('Authorization', keyOf(who)).send(body);

describe('GET /api/shop/subscriptions/plans', () => {
  it('lists free, basic, pro and business with prices and featured slots, publicly', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/shop/subscriptions/plans');
    expect(res.status).toBe(200);
    expect(res.body.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'basic', 'pro', 'business']);
    expect(
      res.body.plans.map((p: { limits: { featuredListings: number } }) => p.limits.featuredListings),
    ).toEqual([0, 3, 10, 50]);
    expect(res.body.plans[2].price_cents).toEqual({ monthly: 2999, yearly: 29990 });
  });
});

describe('GET /api/shop/subscriptions/my-plan', () => {
  it('shows the seeded pro plan of the subscriber and counts active featured listings', async () => {
    const sb = await makeSandbox();
    const me = userIdOf(sb, accounts.subscriber.email);
    addListing(sb, { seller_id: me, is_featured: true, featured_payment_method: 'subscription' });
    addListing(sb, { seller_id: me, is_featured: true, featured_payment_method: 'subscription' });
    addListing(sb, { seller_id: me, is_featured: false });
    // An ended featured listing no longer uses a slot.
    addListing(sb, {
      seller_id: me,
      is_featured: true,
      duration: '1day',
      created_at: '2025-01-01T00:00:00.000Z',
    });
    const res = await sb.http
      .get('/api/shop/subscriptions/my-plan')
      .set('Authorization', keyOf('subscriber'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan_name: 'pro',
      limits: { featuredListings: 10 },
      usage: { currentFeatured: 2 },
      billing_cycle: 'monthly',
    });
    const maxed = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('maxed'));
    expect(maxed.body).toMatchObject({ plan_name: 'basic', limits: { featuredListings: 3 } });
  });

  it('is free for a user without a plan, and a plan falls back to free after its cycle', async () => {
    const sb = await makeSandbox();
    const free = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('buyer'));
    expect(free.body).toEqual({
      plan_name: 'free',
      limits: { featuredListings: 0 },
      usage: { currentFeatured: 0 },
      billing_cycle: null,
      started_at: null,
      expires_at: null,
    });
    // Seeded plans started a day before the sandbox clock: 29 days of the 30-day cycle are left.
    await sb.http.post('/__sandbox/clock').send({ advance: '28d' });
    const still = await sb.http
      .get('/api/shop/subscriptions/my-plan')
      .set('Authorization', keyOf('subscriber'));
    expect(still.body.plan_name).toBe('pro');
    await sb.http.post('/__sandbox/clock').send({ advance: '1d' });
    const lapsed = await sb.http
      .get('/api/shop/subscriptions/my-plan')
      .set('Authorization', keyOf('subscriber'));
    expect(lapsed.body).toMatchObject({ plan_name: 'free', limits: { featuredListings: 0 } });
    expectError(await sb.http.get('/api/shop/subscriptions/my-plan'), 401);
  });
});

describe('POST /api/shop/subscriptions/subscribe', () => {
  it('debits the wallet in USD cents and activates the plan for one cycle', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ set: '2026-01-01T00:00:00.000Z', freeze: true });
    const res = await subscribe(sb, 'buyer', {
      planId: 'pro',
      billingCycle: 'monthly',
      paymentMethod: 'credit_wallet',
      currency: 'USD',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      paymentMethod: 'credit_wallet',
      plan: 'pro',
      deducted: 2999,
    });
    expect(res.body.message).toContain('29.99 USD');
    expect(res.body.expires_at).toBe('2026-01-31T00:00:00.000Z');
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000 - 2999);
    expect(ledgerSum(sb, accounts.buyer.email)).toBe(100000 - 2999);
    const plan = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('buyer'));
    expect(plan.body).toMatchObject({
      plan_name: 'pro',
      billing_cycle: 'monthly',
      expires_at: '2026-01-31T00:00:00.000Z',
    });
  });

  it('quotes the price in a fiat, Credit- or crypto currency and deducts the USD cents', async () => {
    const sb = await makeSandbox();
    await freeze(sb);
    const rates = (await sb.http.get('/api/wallet/exchange-rates')).body.rates;
    const eur = await subscribe(sb, 'buyer', { planId: 'basic', billingCycle: 'yearly', currency: 'EUR' });
    expect(eur.body.deducted).toBe(9990);
    expect(eur.body.message).toContain(`${((9990 / 100) * rates.EUR.rate).toFixed(2)} EUR`);
    const credit = await subscribe(sb, 'buyer', {
      planId: 'business',
      billingCycle: 'monthly',
      currency: 'Credit-JPY',
    });
    expect(credit.body.deducted).toBe(9999);
    expect(credit.body.message).toContain(`${((9999 / 100) * rates.JPY.rate).toFixed(2)} Credit-JPY`);
    const btc = await subscribe(sb, 'buyer', {
      planId: 'pro',
      billingCycle: 'monthly',
      currency: 'Credit-BTC',
    });
    expect(btc.body.message).toMatch(/0\.000\d+ Credit-BTC/);
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000 - 9990 - 9999 - 2999);
    const plan = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('buyer'));
    expect(plan.body.plan_name).toBe('pro'); // the last subscription replaced the others
  });

  it('falls back to the provider when the wallet is short; approval activates the plan', async () => {
    const sb = await makeSandbox();
    const res = await subscribe(sb, 'broke', {
      planId: 'basic',
      billingCycle: 'monthly',
      paymentMethod: 'credit_wallet',
      currency: 'USD',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      paymentMethod: 'payprovider',
      approvalUrl: expect.stringMatching(/\/sandbox\/payprovider\//),
      plan: 'basic',
      paymentId: expect.any(String),
    });
    const before = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('broke'));
    expect(before.body.plan_name).toBe('free');
    const approved = await sb.http.post(`/__sandbox/payprovider/${res.body.paymentId}/approve`);
    expect(approved.body.payment).toMatchObject({
      kind: 'subscription',
      reference: 'basic:monthly',
      amount_cents: 999,
    });
    const after = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('broke'));
    expect(after.body).toMatchObject({ plan_name: 'basic', limits: { featuredListings: 3 } });
    expect(balanceOf(sb, accounts.broke.email)).toBe(0);
  });

  it('uses the provider when asked even with money in the wallet; cancel leaves the plan alone', async () => {
    const sb = await makeSandbox();
    const res = await subscribe(sb, 'buyer', {
      planId: 'pro',
      billingCycle: 'yearly',
      paymentMethod: 'payprovider',
    });
    expect(res.body.paymentMethod).toBe('payprovider');
    await sb.http.post(`/__sandbox/payprovider/${res.body.paymentId}/cancel`);
    const plan = await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf('buyer'));
    expect(plan.body.plan_name).toBe('free');
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
  });

  it('subscribing to free ends a paid plan without charge', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/shop/subscriptions/subscribe')
      .set('Authorization', keyOf('subscriber'))
      .send({ planId: 'free', billingCycle: 'monthly', paymentMethod: 'payprovider' });
    expect(res.body).toMatchObject({ paymentMethod: 'credit_wallet', deducted: 0, plan: 'free' });
    const plan = await sb.http
      .get('/api/shop/subscriptions/my-plan')
      .set('Authorization', keyOf('subscriber'));
    expect(plan.body.plan_name).toBe('free');
  });

  it('refuses unknown plans, unknown currencies and bad bodies', async () => {
    const sb = await makeSandbox();
    expectError(
      await subscribe(sb, 'buyer', { planId: 'platinum', billingCycle: 'monthly' }),
      404,
      'Plan not found: platinum',
    );
    expectError(
      await subscribe(sb, 'buyer', { planId: 'pro', billingCycle: 'monthly', currency: 'Credit-XYZ' }),
      400,
      /body.currency Credit-XYZ is not a known currency/,
    );
    expectError(await subscribe(sb, 'buyer', { planId: 'pro', billingCycle: 'weekly' }), 400, /billingCycle/);
    expectError(await subscribe(sb, 'buyer', { planId: 'pro' }), 400, 'body.billingCycle is required');
    expectError(
      await sb.http
        .post('/api/shop/subscriptions/subscribe')
        .send({ planId: 'pro', billingCycle: 'monthly' }),
      401,
    );
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
  });
});
