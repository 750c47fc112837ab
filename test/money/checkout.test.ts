import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, expectError, makeSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, freeze, keyOf, ledgerSum, userIdOf } from './helpers.js';

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
    expectDetailedError(
      await post('buyer', {
        cartItems: [{ listing_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
        deliveryMethod: 'pickup',
      }),
      404,
      'Listing not found',
      'No listing has the id 00000000-0000-4000-8000-000000000000 (body.cartItems)',
    );
    expectDetailedError(
      await post('seller', {
        cartItems: [{ listing_id: listing.id, quantity: 1 }],
        deliveryMethod: 'pickup',
      }),
      403,
      'Not authorized',
      `You cannot buy your own listing ${listing.id}`,
    );
    expectError(
      await post('buyer', { cartItems: [{ listing_id: listing.id, quantity: 2 }], deliveryMethod: 'pickup' }),
      409,
      /Only 1 of listing/,
    );
  });
});

describe('checkout: arithmetic and choices', () => {
  it('credits each seller of a multi-seller order their own lines minus the fee', async () => {
    const sb = await makeSandbox();
    const other = userIdOf(sb, accounts.subscriber.email);
    const a = addListing(sb, { price_cents: 999 });
    const b = addListing(sb, { seller_id: other, price_cents: 19, store_slug: null });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({
        cartItems: [
          { listing_id: a.id, quantity: 3 },
          { listing_id: b.id, quantity: 1 },
        ],
        shippingAddress: address,
        shippingCostCents: 1,
      });
    // 2997 + 19 + 1 shipping; fees: round(149.85) = 150, round(0.95) = 1
    expect(res.body.deducted).toBe(3017);
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 2997 - 150);
    expect(balanceOf(sb, accounts.subscriber.email)).toBe(5000 + 19 - 1);
    expect(sb.world.store.db.orders[res.body.orderId].platform_fee_cents).toBe(151);
  });

  it('follows --platform-fee-bps', async () => {
    const sb = await makeSandbox({ platformFeeBps: 1250 });
    const a = addListing(sb, { price_cents: 1000 });
    await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({ cartItems: [{ listing_id: a.id, quantity: 1 }], deliveryMethod: 'pickup' });
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 875);
  });

  it('pays a free pickup from the wallet with deducted 0', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { price_cents: 0, type: 'classifieds' });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send({ cartItems: [{ listing_id: a.id, quantity: 1 }], deliveryMethod: 'pickup' });
    expect(res.body).toMatchObject({ paymentMethod: 'credit_wallet', deducted: 0 });
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500);
  });

  it('uses the provider when asked, even when the wallet could pay', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({
        cartItems: [{ listing_id: a.id, quantity: 1 }],
        deliveryMethod: 'pickup',
        paymentMethod: 'payprovider',
      });
    expect(res.body.paymentMethod).toBe('payprovider');
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
  });

  it('falls back when the balance is one cent short, and pays when it is exact', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { price_cents: 2000 });
    await sb.http.post(`/__sandbox/wallets/${accounts.broke.email}/fund`).send({ amount_cents: 2499 });
    const send = () =>
      sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('broke'))
        .send({
          cartItems: [{ listing_id: a.id, quantity: 1 }],
          shippingAddress: address,
          shippingCostCents: 500,
        });
    expect((await send()).body.paymentMethod).toBe('payprovider');
    await sb.http.post(`/__sandbox/wallets/${accounts.broke.email}/fund`).send({ amount_cents: 1 });
    expect((await send()).body).toMatchObject({ paymentMethod: 'credit_wallet', deducted: 2500 });
    expect(balanceOf(sb, accounts.broke.email)).toBe(0);
  });
});

describe('checkout: refusals change nothing', () => {
  it('rejects bad bodies with 400', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const line = [{ listing_id: a.id, quantity: 1 }];
    const post = (body: object) =>
      sb.http.post('/api/shop/checkout').set('Authorization', keyOf('buyer')).send(body);
    expectError(
      await post({ cartItems: line, deliveryMethod: 'pickup', shippingCostCents: 100 }),
      400,
      'body.shippingCostCents must be 0 when deliveryMethod is pickup',
    );
    expectError(
      await post({ cartItems: line }),
      400,
      'body.shippingAddress is required when deliveryMethod is shipping',
    );
    expectError(
      await post({ cartItems: [...line, ...line], deliveryMethod: 'pickup' }),
      400,
      /more than once/,
    );
    expectError(await post({ cartItems: [], deliveryMethod: 'pickup' }), 400, /cartItems/);
    expectError(await post({ cartItems: line, deliveryMethod: 'drone' }), 400, /deliveryMethod/);
    expectError(
      await post({ cartItems: line, deliveryMethod: 'pickup', tip: 5 }),
      400,
      'body.tip is not allowed',
    );
    expectError(
      await post({ cartItems: [{ listing_id: a.id, quantity: 0 }], deliveryMethod: 'pickup' }),
      400,
      /quantity/,
    );
    expectError(await post({ deliveryMethod: 'pickup' }), 400, 'body.cartItems is required');
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
    expect(sb.world.store.db.listings[a.id].quantity_available).toBe(5);
    expect(Object.keys(sb.world.store.db.orders)).toHaveLength(0);
  });

  it('refuses an ended listing with 409 and a whole order when one line fails', async () => {
    const sb = await makeSandbox();
    const ok = addListing(sb);
    const ended = addListing(sb, { duration: '1day' });
    await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({
        cartItems: [
          { listing_id: ok.id, quantity: 1 },
          { listing_id: ended.id, quantity: 1 },
        ],
        deliveryMethod: 'pickup',
      });
    expectError(res, 409, `Listing ${ended.id} is no longer active (its duration has ended)`);
    expect(sb.world.store.db.listings[ok.id].quantity_available).toBe(5);
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
  });

  it('needs a user credential: none, or a guest token alone, is 401', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const body = { cartItems: [{ listing_id: a.id, quantity: 1 }], deliveryMethod: 'pickup' };
    expectDetailedError(
      await sb.http.post('/api/shop/checkout').send(body),
      401,
      'Invalid or expired token',
      /^Authentication required/,
    );
    const guest = (await sb.http.post('/api/auth/guest')).body.guestToken as string;
    expectError(await sb.http.post('/api/shop/checkout').set('X-Guest-Token', guest).send(body), 401);
    const jwt = await sb.login(accounts.buyer.email, accounts.buyer.password);
    expect((await sb.http.post('/api/shop/checkout').set('Authorization', jwt).send(body)).status).toBe(200);
  });
});
