import { afterEach, describe, expect, it, vi } from 'vitest';
import type { World } from '../../src/world/world.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Class: money must stay whole (issue 14). Approving, cancelling or expiring a provider payment is
 * all or nothing: a failure half-way leaves payment, order, stock and ledger exactly as they were
 * (`test/hardening/money-whole.test.ts` fails an approval by a balance past its bound). Here a
 * cancellation and an expiry fail after the order was cancelled and its stock put back, the last
 * thing they do before they are done: `cancelOrder` runs, then throws, while `failRelease` is on.
 */
let failRelease = false;
vi.mock('../../src/api/orders/settle.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/api/orders/settle.js')>();
  return {
    ...real,
    cancelOrder: (...args: Parameters<typeof real.cancelOrder>) => {
      real.cancelOrder(...args);
      if (failRelease) throw new Error('injected failure after the stock was put back');
    },
  };
});
afterEach(() => {
  failRelease = false;
});

const key = (who: keyof typeof accounts) => `Bearer ${accounts[who].apiKey}`;
const LISTING = '5ce0a000-0000-4000-8000-0000000ca11a';
const SECOND = '5ce0a000-0000-4000-8000-0000000ca11b';

/** A sandbox where the broke buyer holds stock of two listings by a pending provider payment. */
async function held(): Promise<{ sb: TestSandbox; paymentId: string; orderId: string }> {
  const sb = await makeSandbox();
  const listings = [LISTING, SECOND].map((id) => ({
    id,
    seller: accounts.seller.email,
    title: 'Held lamp',
    price_cents: 2_500,
    quantity_available: 5,
  }));
  const overlay = await sb.http
    .post('/__sandbox/scenarios/inline/activate')
    .send({ document: { name: 'inline', description: 'x', overlay: { listings } } });
  expect(overlay.status, JSON.stringify(overlay.body)).toBe(200);
  const checkout = await sb.http
    .post('/api/shop/checkout')
    .set('Authorization', key('broke'))
    .send({
      cartItems: [
        { listing_id: LISTING, quantity: 2 },
        { listing_id: SECOND, quantity: 3 },
      ],
      shippingAddress: { street: '1 Test Street', city: 'Berlin', zip: '10115' },
      paymentMethod: 'payprovider',
    });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  return { sb, paymentId: checkout.body.paymentId as string, orderId: checkout.body.orderId as string };
}

/**
 * Payment, order, stock and ledger as the store holds them, read without a request (a request
 * would apply a due expiry first).
 */
function moneyState(world: World, paymentId: string, orderId: string) {
  const { db } = world.store;
  return structuredClone({
    payment: db.payments[paymentId],
    order: db.orders[orderId],
    stock: [db.listings[LISTING].quantity_available, db.listings[SECOND].quantity_available],
    ledger: db.ledger,
    balances: Object.values(db.users).map((u) => u.balance_cents),
  });
}

describe('cancel and expiry of a provider payment are all or nothing', () => {
  it('a cancellation that fails half-way leaves payment, order, stock and ledger as they were', async () => {
    const { sb, paymentId, orderId } = await held();
    const before = moneyState(sb.world, paymentId, orderId);
    expect(before.payment.status).toBe('pending');
    expect(before.order.status).toBe('pending_payment');
    expect(before.stock).toEqual([3, 2]);

    failRelease = true;
    expectError(
      await sb.http.post(`/__sandbox/payprovider/${paymentId}/cancel`),
      500,
      'Internal server error',
    );
    expect(moneyState(sb.world, paymentId, orderId)).toEqual(before);
    const page = await sb.http.get(`/__sandbox/payprovider/${paymentId}`);
    expect(page.body.payment.status).toBe('pending');

    // Nothing is stuck: the same cancellation then goes through, whole.
    failRelease = false;
    expect((await sb.http.post(`/__sandbox/payprovider/${paymentId}/cancel`)).status).toBe(200);
    const after = moneyState(sb.world, paymentId, orderId);
    expect(after.payment.status).toBe('cancelled');
    expect(after.order.status).toBe('cancelled');
    expect(after.stock).toEqual([5, 5]);
    expect(after.ledger).toEqual(before.ledger);
  });

  it('an expiry that fails half-way leaves them as they were, and is applied whole by the next request', async () => {
    const { sb, paymentId, orderId } = await held();
    const before = moneyState(sb.world, paymentId, orderId);
    // The hold runs out on the sandbox clock; the next request applies the expiry before anything else.
    expect((await sb.http.post('/__sandbox/clock').send({ advance: '3h' })).status).toBe(200);
    const due = moneyState(sb.world, paymentId, orderId);
    expect(due).toEqual(before);

    failRelease = true;
    const read = await sb.http.get(`/api/shop/listings/${LISTING}`);
    expectError(read, 500, 'Internal server error');
    expect(moneyState(sb.world, paymentId, orderId)).toEqual(before);

    failRelease = false;
    const listing = await sb.http.get(`/api/shop/listings/${LISTING}`);
    expect(listing.status).toBe(200);
    expect(listing.body.quantity_available).toBe(5);
    const after = moneyState(sb.world, paymentId, orderId);
    expect(after.payment.status).toBe('expired');
    expect(after.order.status).toBe('cancelled');
    expect(after.stock).toEqual([5, 5]);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.balances).toEqual(before.balances);
  });
});
