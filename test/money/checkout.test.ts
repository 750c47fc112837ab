import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, freeze, keyOf, ledgerSum } from './helpers.js';

const address = { street: '1 Main St', city: 'Springfield', zip: '12345' };

describe('checkout: wallet first', () => {
  it('debits the wallet, takes stock, pays the order and credits the seller minus 5%', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb, { price_cents: 1010, quantity_available: 3 });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({
        cartItems: [{ listing_id: listing.id, quantity: 2 }],
        shippingAddress: address,
        deliveryMethod: 'shipping',
        paymentMethod: 'credit_wallet',
        shippingCostCents: 499,
      });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      paymentMethod: 'credit_wallet',
      deducted: 2519,
      shippingCurrency: 'USD',
      orderId: expect.any(String),
    });
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000 - 2519);
    // fee = round(2020 * 5%) = 101; seller gets 2020 - 101 = 1919 on top of 2500
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 1919);
    expect(sb.world.store.db.listings[listing.id].quantity_available).toBe(1);
    const order = await sb.http
      .get(`/api/shop/orders/${res.body.orderId}`)
      .set('Authorization', keyOf('buyer'));
    expect(order.body).toMatchObject({
      status: 'paid',
      subtotal_cents: 2020,
      shipping_cents: 499,
      platform_fee_cents: 101,
      total_cents: 2519,
      paymentMethod: 'credit_wallet',
    });
    expect(ledgerSum(sb, accounts.buyer.email)).toBe(balanceOf(sb, accounts.buyer.email));
    expect(ledgerSum(sb, accounts.seller.email)).toBe(balanceOf(sb, accounts.seller.email));
  });

  it('converts a foreign price to USD cents at the current rate', async () => {
    const sb = await makeSandbox();
    await freeze(sb);
    const listing = addListing(sb, { price_cents: 5000, currency: 'EUR' });
    const rates = await sb.http.get('/api/wallet/exchange-rates');
    const expected = Math.floor(5000 / rates.body.rates.EUR.rate + 0.5);
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({ cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup' });
    expect(res.body.deducted).toBe(expected);
  });
});

describe('checkout: provider fallback', () => {
  it('answers an empty wallet with an approvalUrl and holds the stock', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb, { quantity_available: 2 });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send({ cartItems: [{ listing_id: listing.id, quantity: 2 }], shippingAddress: address });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.paymentMethod).toBe('payprovider');
    expect(res.body.approvalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/payprovider\/[0-9a-f-]{36}$/);
    expect(sb.world.store.db.listings[listing.id].quantity_available).toBe(0);
  });

  it('refuses unknown listings, own listings, too much quantity', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb, { quantity_available: 1 });
    const post = (who: 'buyer' | 'seller', body: object) =>
      sb.http.post('/api/shop/checkout').set('Authorization', keyOf(who)).send(body);
    expectError(
      await post('buyer', {
        cartItems: [{ listing_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
        deliveryMethod: 'pickup',
      }),
      404,
      /Listing not found/,
    );
    expectError(
      await post('seller', {
        cartItems: [{ listing_id: listing.id, quantity: 1 }],
        deliveryMethod: 'pickup',
      }),
      403,
      /own listing/,
    );
    expectError(
      await post('buyer', { cartItems: [{ listing_id: listing.id, quantity: 2 }], deliveryMethod: 'pickup' }),
      409,
      /Only 1 of listing/,
    );
  });
});
