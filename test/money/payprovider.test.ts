import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, keyOf, ledgerSum } from './helpers.js';

/** An empty-wallet checkout of `quantity` units at 20.00 USD, 3.00 shipping: a pending provider payment. */
async function pendingCheckout(sb: TestSandbox, quantity = 2) {
  const listing = addListing(sb, { price_cents: 2000, quantity_available: 3 });
  const res = await sb.http
    .post('/api/shop/checkout')
    .set('Authorization', keyOf('broke'))
    .send({
      cartItems: [{ listing_id: listing.id, quantity }],
      shippingAddress: { street: '1 Main St', city: 'Springfield', zip: '12345' },
      shippingCostCents: 300,
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.paymentMethod).toBe('payprovider');
  return {
    listing,
    orderId: res.body.orderId as string,
    paymentId: res.body.paymentId as string,
    url: res.body.approvalUrl as string,
  };
}

const stock = (sb: TestSandbox, id: string) => sb.world.store.db.listings[id].quantity_available;

describe('provider payments: approve', () => {
  it('pays the order and credits the seller after the fee, leaving the buyer wallet alone', async () => {
    const sb = await makeSandbox();
    const { listing, orderId, paymentId } = await pendingCheckout(sb);
    const state = await sb.http.get(`/__sandbox/payprovider/${paymentId}`);
    expect(state.body.payment).toMatchObject({
      status: 'pending',
      kind: 'order',
      amount_cents: 4300,
      reference: orderId,
    });
    expect(Date.parse(state.body.payment.expires_at) - Date.parse(state.body.payment.created_at)).toBe(
      3 * 3_600_000,
    );
    const res = await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.payment.status).toBe('approved');
    expect(res.body.order).toMatchObject({ status: 'paid', total_cents: 4300, platform_fee_cents: 200 });
    expect(balanceOf(sb, accounts.broke.email)).toBe(0);
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 4000 - 200);
    expect(ledgerSum(sb, accounts.seller.email)).toBe(balanceOf(sb, accounts.seller.email));
    expect(stock(sb, listing.id)).toBe(1);
  });

  it('refuses a second approval with 409', async () => {
    const sb = await makeSandbox();
    const { paymentId } = await pendingCheckout(sb);
    await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`);
    expectError(await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`), 409, /already approved/);
    expectError(await sb.http.post(`/__sandbox/payprovider/${paymentId}/cancel`), 409, /already approved/);
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 3800);
  });

  it('answers unknown payments with 404 and bad ids with 400', async () => {
    const sb = await makeSandbox();
    const id = '00000000-0000-4000-8000-000000000000';
    expectError(await sb.http.get(`/__sandbox/payprovider/${id}`), 404, `Payment not found: ${id}`);
    expectError(await sb.http.post(`/__sandbox/payprovider/${id}/approve`), 404);
    expectError(await sb.http.post(`/__sandbox/payprovider/${id}/cancel`), 404);
    expectError(await sb.http.post('/__sandbox/payprovider/nope/approve'), 400);
  });
});

describe('provider payments: cancel and expiry', () => {
  it('cancel releases the stock and cancels the order', async () => {
    const sb = await makeSandbox();
    const { listing, orderId, paymentId } = await pendingCheckout(sb);
    expect(stock(sb, listing.id)).toBe(1);
    const res = await sb.http.post(`/__sandbox/payprovider/${paymentId}/cancel`);
    expect(res.body.payment.status).toBe('cancelled');
    expect(res.body.order.status).toBe('cancelled');
    expect(stock(sb, listing.id)).toBe(3);
    const order = await sb.http.get(`/api/shop/orders/${orderId}`).set('Authorization', keyOf('broke'));
    expect(order.body).toMatchObject({
      status: 'cancelled',
      cancelled_at: expect.any(String),
      paid_at: null,
    });
    expectError(await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`), 409, /already cancelled/);
  });

  it('expires after 3 hours of sandbox time and releases the stock', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const { listing, paymentId } = await pendingCheckout(sb);
    await sb.http.post('/__sandbox/clock').send({ advance: '2h59m' });
    expect((await sb.http.get(`/__sandbox/payprovider/${paymentId}`)).body.payment.status).toBe('pending');
    expect(stock(sb, listing.id)).toBe(1);
    await sb.http.post('/__sandbox/clock').send({ advance: '1m' });
    const state = await sb.http.get(`/__sandbox/payprovider/${paymentId}`);
    expect(state.body.payment).toMatchObject({
      status: 'expired',
      resolved_at: state.body.payment.expires_at,
    });
    expect(state.body.order.status).toBe('cancelled');
    expect(stock(sb, listing.id)).toBe(3);
    expectError(await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`), 409, /already expired/);
  });

  it('releases expired holds before any request, so every read sees the stock', async () => {
    const sb = await makeSandbox();
    const { listing, paymentId } = await pendingCheckout(sb);
    await sb.http.post('/__sandbox/clock').send({ advance: '3h' });
    expect(stock(sb, listing.id)).toBe(1);
    await sb.http.get('/__sandbox/health');
    expect(stock(sb, listing.id)).toBe(3);
    expect(sb.world.store.db.payments[paymentId].status).toBe('expired');
  });

  it('applies an expiry before a checkout needs the held stock', async () => {
    const sb = await makeSandbox();
    const { listing } = await pendingCheckout(sb, 3);
    const again = () =>
      sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('buyer'))
        .send({ cartItems: [{ listing_id: listing.id, quantity: 3 }], deliveryMethod: 'pickup' });
    expectError(await again(), 409, /Only 0 of listing/);
    await sb.http.post('/__sandbox/clock').send({ advance: '3h' });
    expect((await again()).body).toMatchObject({ paymentMethod: 'credit_wallet', deducted: 6000 });
  });
});

describe('GET /__sandbox/payments and /__sandbox/orders', () => {
  it('lists payments newest first, filtered by status', async () => {
    const sb = await makeSandbox();
    const first = await pendingCheckout(sb, 1);
    const second = await pendingCheckout(sb, 1);
    await sb.http.post(`/__sandbox/payprovider/${first.paymentId}/approve`);
    const all = await sb.http.get('/__sandbox/payments');
    expect(all.body.payments.map((p: { id: string }) => p.id)).toEqual([second.paymentId, first.paymentId]);
    const pending = await sb.http.get('/__sandbox/payments?status=pending');
    expect(pending.body.payments.map((p: { id: string }) => p.id)).toEqual([second.paymentId]);
    expectError(await sb.http.get('/__sandbox/payments?status=nope'), 400);
    const orders = await sb.http.get('/__sandbox/orders');
    expect(orders.body.orders.map((o: { id: string }) => o.id)).toEqual([second.orderId, first.orderId]);
    const paid = await sb.http.get('/__sandbox/orders?status=paid');
    expect(paid.body.orders.map((o: { id: string }) => o.id)).toEqual([first.orderId]);
  });
});

describe('the provider page /sandbox/payprovider/{paymentId}', () => {
  it('shows the amount, the items and the Approve and Cancel buttons', async () => {
    const sb = await makeSandbox();
    const { listing, url, paymentId } = await pendingCheckout(sb);
    const res = await sb.http.get(new URL(url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('43.00 USD');
    expect(res.text).toContain(listing.title);
    expect(res.text).toContain('>Approve</button>');
    expect(res.text).toContain('>Cancel</button>');
    expect(res.text).toContain(`"/sandbox/payprovider/${paymentId}/"`);
    await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`);
    const after = await sb.http.get(new URL(url).pathname);
    expect(after.text).toContain('<strong>approved</strong>');
    expect(after.text).not.toContain('>Approve</button>');
  });

  it('escapes titles and answers unknown payments with a JSON 404', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb, { title: '<script>alert(1)</script>' });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send({ cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup' });
    const page = await sb.http.get(new URL(res.body.approvalUrl).pathname);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).toContain('&#60;script&#62;');
    expectError(await sb.http.get('/sandbox/payprovider/nope'), 404, 'Payment not found: nope');
  });
});
