import { describe, expect, it, vi } from 'vitest';
import { accounts, makeSandbox } from '../helpers/sandbox.js';

// Stands in for the money module's charging, to pin down what the 201 may carry.
vi.mock('../../src/api/listings/featured-hook.js', () => ({
  applyFeaturedRequest: (_db: unknown, ctx: { method: string }) =>
    ctx.method === 'payprovider'
      ? {
          is_featured: false,
          featured_payment_method: null,
          approvalUrl: 'http://127.0.0.1/sandbox/payprovider/p1',
        }
      : { is_featured: true, featured_payment_method: ctx.method, deducted: 100 },
}));

describe('POST /api/shop/listings with a featuring decision', () => {
  it('returns the hook outcome in the 201 (validated against CreatedListing)', async () => {
    const sb = await makeSandbox();
    const body = { type: 'mall', title: 'Lamp', category: 'decor', price_cents: 100, is_featured: true };
    const auth = `Bearer ${accounts.seller.apiKey}`;
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
    const first = await sb.http.get('/api/shop/listings?limit=1');
    expect(first.body.listings[0].is_featured).toBe(true);
    const redirect = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', auth)
      .send({ ...body, featured_payment_method: 'payprovider' });
    expect(redirect.status).toBe(201);
    expect(redirect.body.approvalUrl).toMatch(/payprovider/);
    expect(redirect.body.is_featured).toBe(false);
  });
});
