import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { addListing, keyOf, userIdOf } from './helpers.js';

async function buy(sb: TestSandbox, who: 'buyer' | 'broke', listingId: string) {
  const res = await sb.http
    .post('/api/shop/checkout')
    .set('Authorization', keyOf(who))
    .send({ cartItems: [{ listing_id: listingId, quantity: 1 }], deliveryMethod: 'pickup' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.orderId as string;
}

describe('GET /api/shop/orders', () => {
  it("lists the buyer's own orders newest first, with the order record", async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb);
    const first = await buy(sb, 'buyer', listing.id);
    const second = await buy(sb, 'buyer', listing.id);
    await buy(sb, 'broke', listing.id);
    const res = await sb.http.get('/api/shop/orders').set('Authorization', keyOf('buyer'));
    expect(res.status).toBe(200);
    expect(res.body.orders.map((o: { id: string }) => o.id)).toEqual([second, first]);
    expect(res.body.orders[0]).toEqual({
      id: second,
      buyer_id: userIdOf(sb, accounts.buyer.email),
      status: 'paid',
      items: [
        {
          listing_id: listing.id,
          seller_id: userIdOf(sb, accounts.seller.email),
          title: listing.title,
          quantity: 1,
          unit_price_cents: 1000,
          currency: 'USD',
          line_total_cents: 1000,
          platform_fee_cents: 50,
        },
      ],
      subtotal_cents: 1000,
      shipping_cents: 0,
      platform_fee_cents: 50,
      total_cents: 1000,
      paymentMethod: 'credit_wallet',
      payment_id: null,
      delivery_method: 'pickup',
      shipping_address: null,
      created_at: expect.any(String),
      paid_at: expect.any(String),
      cancelled_at: null,
    });
    expect(res.body.pagination).toEqual({ page: 1, limit: 12, total: 2, totalPages: 1 });
  });

  it('shows sales with role=seller, filters by status and paginates', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb);
    const paid = await buy(sb, 'buyer', listing.id);
    const pending = await buy(sb, 'broke', listing.id);
    const sales = await sb.http.get('/api/shop/orders?role=seller').set('Authorization', keyOf('seller'));
    expect(sales.body.orders.map((o: { id: string }) => o.id)).toEqual([pending, paid]);
    const onlyPaid = await sb.http
      .get('/api/shop/orders?role=seller&status=paid')
      .set('Authorization', keyOf('seller'));
    expect(onlyPaid.body.orders.map((o: { id: string }) => o.id)).toEqual([paid]);
    const page2 = await sb.http
      .get('/api/shop/orders?role=seller&limit=1&page=2')
      .set('Authorization', keyOf('seller'));
    expect(page2.body.orders.map((o: { id: string }) => o.id)).toEqual([paid]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    const asBuyer = await sb.http.get('/api/shop/orders').set('Authorization', keyOf('seller'));
    expect(asBuyer.body.orders).toEqual([]);
  });

  it("answers someone else's order with 404, like a missing one", async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb);
    const order = await buy(sb, 'buyer', listing.id);
    expect(
      (await sb.http.get(`/api/shop/orders/${order}`).set('Authorization', keyOf('seller'))).status,
    ).toBe(200);
    expectError(
      await sb.http.get(`/api/shop/orders/${order}`).set('Authorization', keyOf('broke')),
      404,
      'Order not found',
    );
    expectError(
      await sb.http
        .get('/api/shop/orders/00000000-0000-4000-8000-000000000000')
        .set('Authorization', keyOf('buyer')),
      404,
      'Order not found',
    );
    expectError(await sb.http.get(`/api/shop/orders/${order}`), 401);
    expectError(await sb.http.get('/api/shop/orders?role=admin').set('Authorization', keyOf('buyer')), 400);
  });
});
