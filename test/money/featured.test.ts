import { describe, expect, it } from 'vitest';
import {
  chargeFeatured,
  FEATURED_PRICE_CENTS,
  type FeaturedRequest,
} from '../../src/api/featured/service.js';
import { ApiError } from '../../src/contract/errors.js';
import type { FeaturedPaymentMethod } from '../../src/store/types.js';
import { accounts, expectDetailedError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, keyOf, ledgerSum, userIdOf } from './helpers.js';

type Who = 'buyer' | 'broke' | 'seller' | 'subscriber' | 'maxed';

/** What the catalog does on POST /api/shop/listings with is_featured: charge, then store the listing. */
function featureNew(sb: TestSandbox, who: Who, method: FeaturedPaymentMethod) {
  const userId = userIdOf(sb, accounts[who].email);
  const listing = addListing(sb, { seller_id: userId, is_featured: false });
  const request: FeaturedRequest = {
    userId,
    listingId: listing.id,
    method,
    now: sb.world.clock.now(),
    baseUrl: 'http://sandbox.test',
    sandboxId: 'default',
  };
  const outcome = sb.world.store.mutate((db) => {
    const result = chargeFeatured(db, request);
    db.listings[listing.id].is_featured = result.is_featured;
    db.listings[listing.id].featured_payment_method = result.featured_payment_method;
    return result;
  });
  return { listing, outcome };
}

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

const myPlan = async (sb: TestSandbox, who: Who) =>
  (await sb.http.get('/api/shop/subscriptions/my-plan').set('Authorization', keyOf(who))).body;

describe('featuring by subscription', () => {
  it('uses a free slot while usage < limit and counts it in my-plan', async () => {
    const sb = await makeSandbox();
    const { listing, outcome } = featureNew(sb, 'subscriber', 'subscription');
    expect(outcome).toEqual({ is_featured: true, featured_payment_method: 'subscription' });
    expect(sb.world.store.db.listings[listing.id].is_featured).toBe(true);
    // 2 seeded featured listings + this one.
    expect((await myPlan(sb, 'subscriber')).usage.currentFeatured).toBe(3);
    expect(balanceOf(sb, accounts.subscriber.email)).toBe(5000);
  });

  it("refuses with 403 once the plan's slots are used (maxed: basic, 3 of 3)", async () => {
    const sb = await makeSandbox();
    // The seed already uses all 3 slots of maxed's basic plan.
    expect((await myPlan(sb, 'maxed')).usage).toEqual({ currentFeatured: 3 });
    const err = refusal(() => featureNew(sb, 'maxed', 'subscription'));
    expect(err.status).toBe(403);
    expect(err.message).toBe(
      'All 3 featured listing slots of your Basic plan are in use; pay with credit_wallet or payprovider, or upgrade',
    );
    expect((await myPlan(sb, 'maxed')).usage.currentFeatured).toBe(3);
  });

  it('refuses with 403 on the free plan, and a slot frees up when a featured listing ends', async () => {
    const sb = await makeSandbox();
    const free = refusal(() => featureNew(sb, 'buyer', 'subscription'));
    expect(free.status).toBe(403);
    expect(free.message).toMatch(/Free plan has no featured listing slots/);
    const maxedId = userIdOf(sb, accounts.maxed.email);
    // One of maxed's 3 seeded featured listings becomes one maxed created, ending a day from now
    // (a seeded listing is relisted at the end of its term, so it would hold its slot for good).
    const ending = Object.values(sb.world.store.db.listings).find(
      (l) => l.seller_id === maxedId && l.is_featured,
    )!;
    sb.world.store.mutate((db) => {
      db.listings[ending.id].created_at = sb.world.clock.nowIso();
      db.listings[ending.id].duration = '1day';
      delete db.listings[ending.id].text_ref;
    });
    expect(refusal(() => featureNew(sb, 'maxed', 'subscription')).status).toBe(403);
    await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    expect(featureNew(sb, 'maxed', 'subscription').outcome.is_featured).toBe(true);
  });
});

describe('featuring by credit_wallet', () => {
  it('debits 100 cents and features at once', async () => {
    const sb = await makeSandbox();
    const { listing, outcome } = featureNew(sb, 'seller', 'credit_wallet');
    expect(outcome).toEqual({
      is_featured: true,
      featured_payment_method: 'credit_wallet',
      deducted: FEATURED_PRICE_CENTS,
    });
    expect(balanceOf(sb, accounts.seller.email)).toBe(2400);
    expect(ledgerSum(sb, accounts.seller.email)).toBe(2400);
    const tx = await sb.http.get('/api/wallet/transactions').set('Authorization', keyOf('seller'));
    expect(tx.body.transactions[0]).toMatchObject({
      kind: 'featured',
      amount_cents: -100,
      reference: listing.id,
    });
  });

  it('answers with a provider approvalUrl when the wallet is short; approval features the listing', async () => {
    const sb = await makeSandbox();
    const { listing, outcome } = featureNew(sb, 'broke', 'credit_wallet');
    expect(outcome).toMatchObject({ is_featured: false, featured_payment_method: null });
    expect(outcome.approvalUrl).toBe(`http://sandbox.test/sandbox/payprovider/${outcome.paymentId}`);
    const res = await sb.http.post(`/__sandbox/payprovider/${outcome.paymentId}/approve`);
    expect(res.body.payment).toMatchObject({
      kind: 'featured',
      amount_cents: 100,
      reference: listing.id,
      status: 'approved',
    });
    expect(res.body.order).toBeUndefined();
    expect(sb.world.store.db.listings[listing.id]).toMatchObject({
      is_featured: true,
      featured_payment_method: 'payprovider',
    });
    expect(balanceOf(sb, accounts.broke.email)).toBe(0);
  });
});

describe('featuring by payprovider', () => {
  it('always redirects, even with money in the wallet; cancel leaves the listing unfeatured', async () => {
    const sb = await makeSandbox();
    const { listing, outcome } = featureNew(sb, 'buyer', 'payprovider');
    expect(outcome.approvalUrl).toMatch(/\/sandbox\/payprovider\//);
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
    await sb.http.post(`/__sandbox/payprovider/${outcome.paymentId}/cancel`);
    expect(sb.world.store.db.listings[listing.id].is_featured).toBe(false);
    const second = featureNew(sb, 'buyer', 'payprovider');
    const page = await sb.http.get(`/sandbox/payprovider/${second.outcome.paymentId}`);
    expect(page.text).toContain('1.00 USD');
    await sb.http.post(`/__sandbox/payprovider/${second.outcome.paymentId}/approve`);
    expect(sb.world.store.db.listings[second.listing.id].is_featured).toBe(true);
  });
});

describe('featuring through POST /api/shop/listings', () => {
  const body = (method: FeaturedPaymentMethod) => ({
    type: 'mall',
    title: 'Featured test lamp',
    category: 'phones',
    price_cents: 1500,
    is_featured: true,
    featured_payment_method: method,
  });

  it('features with a free slot, refuses with 403 when none is left, and stores nothing then', async () => {
    const sb = await makeSandbox();
    const ok = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', keyOf('subscriber'))
      .send(body('subscription'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ is_featured: true, featured_payment_method: 'subscription' });
    const before = Object.keys(sb.world.store.db.listings).length;
    const refused = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', keyOf('maxed'))
      .send(body('subscription'));
    expectDetailedError(
      refused,
      403,
      'Not authorized',
      /^All 3 featured listing slots of your Basic plan are in use/,
    );
    expect(Object.keys(sb.world.store.db.listings)).toHaveLength(before);
  });

  it('debits the wallet, or answers with an approvalUrl when it is short', async () => {
    const sb = await makeSandbox();
    const paid = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', keyOf('seller'))
      .send(body('credit_wallet'));
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({
      is_featured: true,
      featured_payment_method: 'credit_wallet',
      deducted: 100,
    });
    expect(balanceOf(sb, accounts.seller.email)).toBe(2400);
    const short = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', keyOf('broke'))
      .send(body('credit_wallet'));
    expect(short.status).toBe(201);
    expect(short.body).toMatchObject({ is_featured: false, featured_payment_method: null });
    expect(short.body.approvalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/payprovider\//);
    const paymentId = (short.body.approvalUrl as string).split('/').pop();
    await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`).expect(200);
    const read = await sb.http.get(`/api/shop/listings/${short.body.id}`);
    expect(read.body).toMatchObject({ is_featured: true, featured_payment_method: 'payprovider' });
  });

  it('lets the provider.approve scenario settle the featuring payment at once', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', keyOf('buyer'))
      .set('X-Sandbox-Scenario', 'provider.approve')
      .send(body('payprovider'));
    expect(res.status).toBe(201);
    expect(res.headers['x-sandbox-scenario-applied']).toBe('provider.approve');
    expect(res.body).toMatchObject({ is_featured: true, featured_payment_method: 'payprovider' });
  });
});
