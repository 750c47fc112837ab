import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, makeSandbox } from '../helpers/sandbox.js';

const auth = `Bearer ${accounts.seller.apiKey}`;
const body = { type: 'mall', title: 'Lamp', category: 'decor', price_cents: 100, is_featured: true };

describe('POST /api/shop/listings with a featuring decision', () => {
  it('answers 201 with what the charge did: wallet cents taken, or a provider redirect', async () => {
    const sb = await makeSandbox();
    const paid = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', auth)
      .send({ ...body, featured_payment_method: 'credit_wallet' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({
      is_featured: true,
      featured_payment_method: 'credit_wallet',
      deducted: 100,
    });
    expect(paid.body.approvalUrl).toBeUndefined();
    const shown = await sb.http.get(`/api/shop/listings/${paid.body.id as string}`);
    expect(shown.body.is_featured).toBe(true);

    const redirect = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', auth)
      .send({ ...body, featured_payment_method: 'payprovider' });
    expect(redirect.status, JSON.stringify(redirect.body)).toBe(201);
    expect(redirect.body.approvalUrl).toMatch(
      /^http:\/\/127\.0\.0\.1(:\d+)?\/sandbox\/payprovider\/[0-9a-f-]{36}$/,
    );
    expect(redirect.body).toMatchObject({ is_featured: false, featured_payment_method: null });
    expect(redirect.body.deducted).toBeUndefined();
  });

  it('stores nothing when featuring is refused', async () => {
    const sb = await makeSandbox();
    const before = Object.keys(sb.world.store.db.listings).length;
    // The seller has no plan: featuring by subscription has no slot to take.
    const refused = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', auth)
      .send({ ...body, featured_payment_method: 'subscription' });
    expectDetailedError(refused, 403, 'Not authorized', /^Your Free plan has no featured listing slots/);
    expect(Object.keys(sb.world.store.db.listings)).toHaveLength(before);
  });
});
