import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Class: money must stay whole. Every amount a request can send is bounded so that every total
 * is a safe integer whatever the exchange rate, the 4xx says the limit, and approving, cancelling
 * or expiring a provider payment is all or nothing: a failure leaves payment, order, stock and
 * ledger exactly as they were.
 */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const key = (who: keyof typeof accounts) => `Bearer ${accounts[who].apiKey}`;
const address = { street: '1 Test Street', city: 'Berlin', zip: '10115' };

async function activate(sb: TestSandbox, overlay: object) {
  return sb.http
    .post('/__sandbox/scenarios/inline/activate')
    .send({ document: { name: 'inline', description: 'x', overlay } });
}

async function checkoutByProvider(sb: TestSandbox, listingId: string, quantity: number) {
  const res = await sb.http
    .post('/api/shop/checkout')
    .set('Authorization', key('broke'))
    .send({
      cartItems: [{ listing_id: listingId, quantity }],
      shippingAddress: address,
      paymentMethod: 'payprovider',
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { orderId: string; paymentId: string };
}

/** What an all-or-nothing step must leave as it was: payment, order, stock and every ledger. */
async function moneyState(sb: TestSandbox, ids: { orderId: string; paymentId: string; listingId: string }) {
  const payment = (await sb.http.get(`/__sandbox/payprovider/${ids.paymentId}`)).body.payment as {
    status: string;
  };
  const orders = await sb.http.get('/__sandbox/orders');
  const listing = await sb.http.get(`/api/shop/listings/${ids.listingId}`);
  const ledgers = await Promise.all(
    (['seller', 'broke'] as const).map((who) =>
      sb.http.get('/api/wallet/transactions?limit=50').set('Authorization', key(who)),
    ),
  );
  return {
    payment: payment.status,
    order: (orders.body.orders as { id: string; status: string }[]).find((o) => o.id === ids.orderId)?.status,
    stock: listing.body.quantity_available as number,
    ledgers: ledgers.map((l) => l.body),
  };
}

describe('every amount is bounded so that totals stay safe integers', () => {
  it('refuses a listing whose unit is worth more than the limit at any rate, saying the limit', async () => {
    const sb = await makeSandbox();
    const category = (await sb.http.get('/api/shop/categories')).body.categories[0].slug as string;
    const listing = (price_cents: number) =>
      sb.http.post('/api/shop/listings').set('Authorization', key('seller')).send({
        type: 'mall',
        title: 'Bitcoin priced lamp',
        category,
        price_cents,
        currency: 'BTC',
        quantity_available: 10_000,
      });
    // The issue's listing: 10^11 BTC cents, whose 10,000 units made a 9.5e19-cent order.
    const refused = await listing(100_000_000_000);
    expectError(
      refused,
      400,
      /price_cents: one unit may be worth at most 10000000\.00 USD .*price_cents ≤ \d+ in BTC/,
    );
    const most = Number(/price_cents ≤ (\d+) in BTC/.exec(refused.body.error as string)![1]);
    expectError(await listing(most + 1), 400, /at most 10000000\.00 USD/);
    // At the limit, the largest order the contract allows is still a safe integer, and it is paid.
    const created = await listing(most);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { orderId, paymentId } = await checkoutByProvider(sb, created.body.id as string, 10_000);
    expect((await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`)).status).toBe(200);
    const order = (await sb.http.get(`/api/shop/orders/${orderId}`).set('Authorization', key('broke'))).body;
    expect(order.status).toBe('paid');
    expect(Number.isSafeInteger(order.total_cents)).toBe(true);
    expect(order.total_cents).toBeLessThanOrEqual(1_000_000_000 * 10_000);
  });

  it('refuses a fund call or an overlay that would take a balance past the largest safe integer, saying the limit', async () => {
    const sb = await makeSandbox();
    expect(
      (await activate(sb, { wallets: [{ email: accounts.buyer.email, balance_cents: MAX_SAFE - 100 }] }))
        .status,
    ).toBe(200);
    const before = (await sb.http.get('/api/wallet/transactions').set('Authorization', key('buyer'))).body;
    const res = await sb.http
      .post(`/__sandbox/wallets/${accounts.buyer.email}/fund`)
      .send({ amount_cents: 1000 });
    expect((await sb.http.get('/api/wallet/transactions').set('Authorization', key('buyer'))).body).toEqual(
      before,
    );
    expectError(res, 409, /a wallet may hold at most 90071992547409\.91 USD \(9007199254740991 cents\)/);
    // A scenario overlay sets a balance outright: its file schema bounds it the same way.
    const overlay = await activate(sb, {
      wallets: [{ email: accounts.seller.email, balance_cents: MAX_SAFE + 1 }],
    });
    expectError(overlay, 400, /balance_cents must be <= 9007199254740991/);
  });

  it('refuses a listing priced past the limit by older data at checkout and in the cart, and a 101st cart line', async () => {
    const sb = await makeSandbox();
    const dear = '5ce0a000-0000-4000-8000-00000000d0d0';
    const lines = Array.from(
      { length: 101 },
      (_, i) => `5ce0a000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const listings = [
      {
        id: dear,
        seller: accounts.seller.email,
        title: 'Old dear lamp',
        price_cents: 100_000_000_000,
        currency: 'BTC',
        quantity_available: 10_000,
      },
      ...lines.map((id) => ({
        id,
        seller: accounts.seller.email,
        title: 'Cheap lamp',
        price_cents: 100,
        quantity_available: 1,
      })),
    ];
    expect((await activate(sb, { listings })).status).toBe(200);
    const checkout = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', key('broke'))
      .send({
        cartItems: [{ listing_id: dear, quantity: 10_000 }],
        shippingAddress: address,
        paymentMethod: 'payprovider',
      });
    expectError(
      checkout,
      409,
      new RegExp(`Listing ${dear} cannot be bought: one unit may be worth at most 10000000\\.00 USD`),
    );
    const add = (listingId: string) =>
      sb.http.post('/api/shop/cart').set('Authorization', key('buyer')).send({ listingId, quantity: 1 });
    expectError(await add(dear), 409, /cannot be bought/);
    for (const id of lines.slice(0, 100)) expect((await add(id)).status).toBe(200);
    expectError(await add(lines[100]), 409, /the most it may hold is 100/);
    const cart = (await sb.http.get('/api/shop/cart').set('Authorization', key('buyer'))).body;
    expect(cart.items).toHaveLength(100);
    expect(cart.subtotal_usd_cents).toBe(100 * 100);
  });
});

describe('a provider quote is always a safe integer', () => {
  /** A mall listing of the seller's; its id. */
  async function listing(sb: TestSandbox, extra: object) {
    const category = (await sb.http.get('/api/shop/categories')).body.categories[0].slug as string;
    const res = await sb.http
      .post('/api/shop/listings')
      .set('Authorization', key('seller'))
      .send({ type: 'mall', title: 'Dear lamp', category, quantity_available: 100_000, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  const providerCheckout = (sb: TestSandbox, ids: string[], quantity: number) =>
    sb.http
      .post('/api/shop/checkout')
      .set('Authorization', key('broke'))
      .send({
        cartItems: ids.map((listing_id) => ({ listing_id, quantity })),
        shippingAddress: address,
        paymentMethod: 'payprovider',
      });

  it('refuses an order no accepted currency can quote exactly, saying the limit; nothing changes', async () => {
    const sb = await makeSandbox();
    // The audit's order: three lines of 10,000 units at the dearest unit, payable only in IRR
    // (42,000 a dollar): 1.26 × 10^18 IRR cents, quoted, approved and shown before.
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await listing(sb, { price_cents: 1_000_000_000, accepted_currencies: ['IRR'] }));
    const orders = (await sb.http.get('/__sandbox/orders')).body;
    const res = await providerCheckout(sb, ids, 10_000);
    expectError(
      res,
      400,
      /^The order's items would be 1\.2\d\de\+18 cents of IRR \(the only currency its listings accept in common: IRR\), more than the provider can be asked exactly \(9007199254740991 cents\)/,
    );
    expect((await sb.http.get('/__sandbox/orders')).body).toEqual(orders);
    for (const id of ids)
      expect((await sb.http.get(`/api/shop/listings/${id}`)).body.quantity_available).toBe(100_000);
    // 100 units of one of them fit in IRR (4.2 × 10^15): quoted there, exactly.
    const one = await providerCheckout(sb, ids.slice(0, 1), 100);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const payment = (await sb.http.get(`/__sandbox/payprovider/${one.body.paymentId as string}`)).body
      .payment;
    expect(payment.quote.currency).toBe('IRR');
    expect(Number.isSafeInteger(payment.quote.items_cents)).toBe(true);
  });

  it('takes the next currency every listing accepts when the first cannot hold the amount', async () => {
    const sb = await makeSandbox();
    const ids = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await listing(sb, { price_cents: 1_000_000_000, accepted_currencies: ['IRR', 'EUR'] }));
    const res = await providerCheckout(sb, ids, 10_000);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const payment = (await sb.http.get(`/__sandbox/payprovider/${res.body.paymentId as string}`)).body
      .payment;
    expect(payment.quote.currency).toBe('EUR');
    expect(Number.isSafeInteger(payment.quote.items_cents)).toBe(true);
  });
});

describe('approve, cancel and expiry are all or nothing', () => {
  it('an approval that fails half-way leaves payment, order, stock and ledger as they were; cancel and expiry still work', async () => {
    const sb = await makeSandbox();
    const listingId = '5ce0a000-0000-4000-8000-00000000a11a';
    const setup = await activate(sb, {
      // The seller's proceeds of one sale (1,000,000 cents less the fee) would pass the largest balance.
      wallets: [{ email: accounts.seller.email, balance_cents: MAX_SAFE - 1000 }],
      listings: [
        {
          id: listingId,
          seller: accounts.seller.email,
          title: 'Dear lamp',
          price_cents: 1_000_000,
          quantity_available: 5,
        },
      ],
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const { orderId, paymentId } = await checkoutByProvider(sb, listingId, 2);
    const ids = { orderId, paymentId, listingId };
    const held = await moneyState(sb, ids);
    expect(held).toMatchObject({ payment: 'pending', order: 'pending_payment', stock: 3 });

    const approve = await sb.http.post(`/__sandbox/payprovider/${paymentId}/approve`);
    expect(await moneyState(sb, ids)).toEqual(held);
    expectError(approve, 409, /The balance of seller@sandbox\.test would be .*a wallet may hold at most/);

    // Nothing is stuck: the hold still expires after 3 hours and gives the stock back.
    expect((await sb.http.post('/__sandbox/clock').send({ advance: '3h' })).status).toBe(200);
    const expired = await moneyState(sb, ids);
    expect(expired).toMatchObject({
      payment: 'expired',
      order: 'cancelled',
      stock: 5,
      ledgers: held.ledgers,
    });

    // And a second hold can be cancelled, whole.
    const second = await checkoutByProvider(sb, listingId, 1);
    expect((await sb.http.post(`/__sandbox/payprovider/${second.paymentId}/cancel`)).status).toBe(200);
    expect(await moneyState(sb, { ...second, listingId })).toMatchObject({
      payment: 'cancelled',
      order: 'cancelled',
      stock: 5,
      ledgers: held.ledgers,
    });
  });
});
