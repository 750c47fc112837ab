import { describe, expect, it } from 'vitest';
import { addListing, keyOf } from '../money/helpers.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

// Record ids are UUIDs (interface 1, convention 4), and UUIDs are case-insensitive: every lookup by
// id (path, query or body field typed `format: uuid` in openapi.yaml) takes either case
// (src/stages/ids.ts).
const upper = (id: string) => id.toUpperCase();

describe('an id in capitals', () => {
  it('reads the same listing, and a listing that does not exist is still a 404', async () => {
    const sb = await makeSandbox();
    const { id } = addListing(sb);
    const lower = await sb.http.get(`/api/shop/listings/${id}`);
    const capitals = await sb.http.get(`/api/shop/listings/${upper(id)}`);
    expect([capitals.status, capitals.body]).toEqual([200, lower.body]);
    const mixed = id.slice(0, 8).toUpperCase() + id.slice(8);
    expect((await sb.http.get(`/api/shop/listings/${mixed}`)).body.id).toBe(id);
    const missing = await sb.http.get('/api/shop/listings/ABCDEF01-2345-4678-9ABC-DEF012345678');
    expectError(missing, 404, 'Listing not found');
  });

  it('adds to and removes from the cart, checks out, and reads the order and its payment', async () => {
    const sb = await makeSandbox();
    const { id } = addListing(sb, { price_cents: 100_000_000 });
    const buyer = keyOf('broke');
    const added = await sb.http
      .post('/api/shop/cart')
      .set('Authorization', buyer)
      .send({ listingId: upper(id), quantity: 2 });
    expect(added.status, added.text).toBe(200);
    expect(added.body.items.map((i: { listing_id: string }) => i.listing_id)).toEqual([id]);
    const again = await sb.http
      .post('/api/shop/cart')
      .set('Authorization', buyer)
      .send({ listingId: id, quantity: 1 });
    expect(again.body.items).toHaveLength(1);
    const removed = await sb.http.delete(`/api/shop/cart/${upper(id)}`).set('Authorization', buyer);
    expect([removed.status, removed.body.items]).toEqual([200, []]);

    const checkout = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', buyer)
      .send({
        cartItems: [{ listing_id: upper(id), quantity: 1 }],
        shippingAddress: { street: 'a', city: 'b', zip: 'c' },
      });
    expect([checkout.status, checkout.body.paymentMethod], checkout.text).toEqual([200, 'payprovider']);
    const { orderId, paymentId } = checkout.body as { orderId: string; paymentId: string };
    const order = await sb.http.get(`/api/shop/orders/${upper(orderId)}`).set('Authorization', buyer);
    expect([order.status, order.body.id]).toEqual([200, orderId]);
    const payment = await sb.http.get(`/__sandbox/payprovider/${upper(paymentId)}`);
    expect([payment.status, payment.body.payment.id]).toEqual([200, paymentId]);
    const page = new URL(checkout.body.approvalUrl as string);
    const shown = await sb.http.get(page.pathname.replace(paymentId, upper(paymentId)) + page.search);
    expect([shown.status, shown.text.includes(paymentId)]).toEqual([200, true]);
    const cancelled = await sb.http.post(`/__sandbox/payprovider/${upper(paymentId)}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
  });

  it('revokes an API key', async () => {
    const sb = await makeSandbox();
    const auth = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const made = await sb.http.post('/api/settings/api-keys').set('Authorization', auth).send({ name: 'ci' });
    expect(made.status, made.text).toBe(201);
    const revoked = await sb.http
      .delete(`/api/settings/api-keys/${upper(made.body.id)}`)
      .set('Authorization', auth);
    expect(revoked.status, revoked.text).toBe(200);
    expectError(await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${made.body.key}`), 401);
  });
});
