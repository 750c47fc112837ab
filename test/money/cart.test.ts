import { describe, expect, it } from 'vitest';
import { expectDetailedError, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { addListing, keyOf } from './helpers.js';

async function guestToken(sb: TestSandbox): Promise<string> {
  const res = await sb.http.post('/api/auth/guest');
  return res.body.guestToken as string;
}

describe('cart with a user credential', () => {
  it('adds, updates, removes with quantity 0 and with DELETE', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { price_cents: 1250 });
    const b = addListing(sb, { price_cents: 920, currency: 'EUR' });
    const post = (body: object) =>
      sb.http.post('/api/shop/cart').set('Authorization', keyOf('buyer')).send(body);
    const first = await post({ listingId: a.id, quantity: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.items).toEqual([
      {
        listing_id: a.id,
        quantity: 2,
        title: a.title,
        price_cents: 1250,
        currency: 'USD',
        line_total_usd_cents: 2500,
        available: true,
      },
    ]);
    expect(first.body.subtotal_usd_cents).toBe(2500);
    await post({ listingId: b.id, quantity: 1 });
    const updated = await post({ listingId: a.id, quantity: 1 });
    expect(updated.body.items.map((i: { quantity: number }) => i.quantity)).toEqual([1, 1]);
    const removed = await post({ listingId: a.id, quantity: 0 });
    expect(removed.body.items.map((i: { listing_id: string }) => i.listing_id)).toEqual([b.id]);
    const deleted = await sb.http.delete(`/api/shop/cart/${b.id}`).set('Authorization', keyOf('buyer'));
    expect(deleted.body.items).toEqual([]);
    expectDetailedError(
      await sb.http.delete(`/api/shop/cart/${b.id}`).set('Authorization', keyOf('buyer')),
      404,
      'Listing not found',
      `Listing ${b.id} is not in the cart`,
    );
    const empty = await sb.http.get('/api/shop/cart').set('Authorization', keyOf('buyer'));
    expect(empty.body).toMatchObject({ items: [], subtotal_usd_cents: 0 });
  });

  it('refuses unknown listings, own listings, more than the stock and ended listings', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { quantity_available: 2 });
    const ended = addListing(sb, { duration: '1day', created_at: '2025-06-01T00:00:00.000Z' });
    const post = (who: 'buyer' | 'seller', body: object) =>
      sb.http.post('/api/shop/cart').set('Authorization', keyOf(who)).send(body);
    expectDetailedError(
      await post('buyer', { listingId: '00000000-0000-4000-8000-000000000000', quantity: 1 }),
      404,
      'Listing not found',
      'No listing has the id 00000000-0000-4000-8000-000000000000',
    );
    expectDetailedError(
      await post('seller', { listingId: a.id, quantity: 1 }),
      403,
      'Not authorized',
      `You cannot buy your own listing ${a.id}`,
    );
    expectError(await post('buyer', { listingId: a.id, quantity: 3 }), 409, /Only 2 of listing/);
    expectError(await post('buyer', { listingId: ended.id, quantity: 1 }), 409, /no longer active/);
    expectError(await post('buyer', { listingId: a.id, quantity: -1 }), 400);
    expectError(await post('buyer', { listingId: a.id }), 400, 'body.quantity is required');
    expectDetailedError(
      await sb.http.get('/api/shop/cart'),
      401,
      'Invalid or expired token',
      /X-Guest-Token/,
    );
  });

  it('marks lines whose listing ran out as unavailable, outside the subtotal', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { quantity_available: 2 });
    await sb.http
      .post('/api/shop/cart')
      .set('Authorization', keyOf('buyer'))
      .send({ listingId: a.id, quantity: 2 });
    sb.world.store.mutate((db) => {
      db.listings[a.id].quantity_available = 1;
    });
    const res = await sb.http.get('/api/shop/cart').set('Authorization', keyOf('buyer'));
    expect(res.body.items[0]).toMatchObject({ available: false });
    expect(res.body.subtotal_usd_cents).toBe(0);
  });

  it('checkout takes the bought listings out of the cart', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const b = addListing(sb);
    for (const l of [a, b])
      await sb.http
        .post('/api/shop/cart')
        .set('Authorization', keyOf('buyer'))
        .send({ listingId: l.id, quantity: 1 });
    await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({ cartItems: [{ listing_id: a.id, quantity: 1 }], deliveryMethod: 'pickup' });
    const res = await sb.http.get('/api/shop/cart').set('Authorization', keyOf('buyer'));
    expect(res.body.items.map((i: { listing_id: string }) => i.listing_id)).toEqual([b.id]);
  });
});

describe('guest cart', () => {
  it('works with X-Guest-Token alone and stays separate per guest', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const g1 = await guestToken(sb);
    const g2 = await guestToken(sb);
    const res = await sb.http
      .post('/api/shop/cart')
      .set('X-Guest-Token', g1)
      .send({ listingId: a.id, quantity: 1 });
    expect(res.status).toBe(200);
    expect((await sb.http.get('/api/shop/cart').set('X-Guest-Token', g1)).body.items).toHaveLength(1);
    expect((await sb.http.get('/api/shop/cart').set('X-Guest-Token', g2)).body.items).toHaveLength(0);
    expectError(
      await sb.http.get('/api/shop/cart').set('X-Guest-Token', 'forged'),
      401,
      'Invalid or expired token',
    );
  });

  it('merges into the user cart when both are sent (quantities add up), then the guest cart is empty', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb, { quantity_available: 10 });
    const b = addListing(sb);
    const guest = await guestToken(sb);
    await sb.http.post('/api/shop/cart').set('X-Guest-Token', guest).send({ listingId: a.id, quantity: 2 });
    await sb.http.post('/api/shop/cart').set('X-Guest-Token', guest).send({ listingId: b.id, quantity: 1 });
    await sb.http
      .post('/api/shop/cart')
      .set('Authorization', keyOf('buyer'))
      .send({ listingId: a.id, quantity: 3 });
    const merged = await sb.http
      .get('/api/shop/cart')
      .set('Authorization', keyOf('buyer'))
      .set('X-Guest-Token', guest);
    expect(
      merged.body.items.map((i: { listing_id: string; quantity: number }) => [i.listing_id, i.quantity]),
    ).toEqual([
      [a.id, 5],
      [b.id, 1],
    ]);
    expect((await sb.http.get('/api/shop/cart').set('X-Guest-Token', guest)).body.items).toEqual([]);
    const user = await sb.http.get('/api/shop/cart').set('Authorization', keyOf('buyer'));
    expect(user.body.items).toHaveLength(2);
  });

  it('merges before a change sent with both credentials', async () => {
    const sb = await makeSandbox();
    const a = addListing(sb);
    const b = addListing(sb);
    const guest = await guestToken(sb);
    await sb.http.post('/api/shop/cart').set('X-Guest-Token', guest).send({ listingId: a.id, quantity: 1 });
    const login = await sb.login('buyer@sandbox.test', 'buyer-pass-123');
    const res = await sb.http
      .post('/api/shop/cart')
      .set('Authorization', login)
      .set('X-Guest-Token', guest)
      .send({ listingId: b.id, quantity: 1 });
    expect(res.body.items.map((i: { listing_id: string }) => i.listing_id)).toEqual([a.id, b.id]);
  });
});
