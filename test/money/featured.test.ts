import { describe, expect, it } from 'vitest';
import {
  chargeFeatured,
  FEATURED_PRICE_CENTS,
  type FeaturedRequest,
} from '../../src/api/featured/service.js';
import { ApiError } from '../../src/http/errors.js';
import type { FeaturedPaymentMethod } from '../../src/store/types.js';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
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
    expect((await myPlan(sb, 'subscriber')).usage.currentFeatured).toBe(1);
    expect(balanceOf(sb, accounts.subscriber.email)).toBe(5000);
  });

  it("refuses with 403 once the plan's slots are used (maxed: basic, 3 of 3)", async () => {
    const sb = await makeSandbox();
    for (let i = 0; i < 3; i++) featureNew(sb, 'maxed', 'subscription');
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
    addListing(sb, { seller_id: maxedId, is_featured: true, duration: '1day' });
    for (let i = 0; i < 2; i++) featureNew(sb, 'maxed', 'subscription');
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
