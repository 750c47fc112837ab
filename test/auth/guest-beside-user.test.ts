import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, makeSandbox } from '../helpers/sandbox.js';
import { addListing } from '../money/helpers.js';

// A generated client set up with one auth callback sends the user's token as X-Guest-Token too
// (conformance report, "Finding"): the user credential wins, with a warning; --strict refuses it.
const GUEST_REFUSED = /^X-Guest-Token is refused: it is a user token: ignored, the request acts as the user$/;

describe('a refused X-Guest-Token beside a valid user credential', () => {
  it("is set aside on the cart: the user's cart is answered and changed, with a warning", async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb);
    const jwt = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const token = jwt.replace(/^Bearer /, '');
    const both = { Authorization: jwt, 'X-Guest-Token': token };
    const added = await sb.http.post('/api/shop/cart').set(both).send({ listingId: listing.id, quantity: 1 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.headers['x-sandbox-warning']).toMatch(GUEST_REFUSED);
    const read = await sb.http.get('/api/shop/cart').set('Authorization', jwt);
    expect(read.body.items.map((i: { listing_id: string }) => i.listing_id)).toEqual([listing.id]);
    expect(read.headers['x-sandbox-warning']).toBeUndefined();
  });

  it('is a 401 with --strict, changing nothing', async () => {
    const sb = await makeSandbox({ strict: true });
    const listing = addListing(sb);
    const jwt = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const both = { Authorization: jwt, 'X-Guest-Token': 'forged' };
    expectDetailedError(
      await sb.http.post('/api/shop/cart').set(both).send({ listingId: listing.id, quantity: 1 }),
      401,
      'Invalid or expired token',
      'X-Guest-Token is refused: it is not a token this sandbox signed',
    );
    expect((await sb.http.get('/api/shop/cart').set('Authorization', jwt)).body.items).toEqual([]);
  });

  it('is ignored, without a warning, where the operation takes no guest token', async () => {
    const sb = await makeSandbox({ strict: true });
    const jwt = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const res = await sb.http
      .get('/api/wallet/balance')
      .set({ Authorization: jwt, 'X-Guest-Token': 'forged' });
    expect(res.status).toBe(200);
    expect(res.headers['x-sandbox-warning']).toBeUndefined();
  });

  it('is a 401 when no user credential comes with it, and a refused user credential is a 401 beside a valid guest', async () => {
    const sb = await makeSandbox();
    expectDetailedError(
      await sb.http.get('/api/shop/cart').set('X-Guest-Token', 'forged'),
      401,
      'Invalid or expired token',
      'X-Guest-Token is refused: it is not a token this sandbox signed',
    );
    const guest = (await sb.http.post('/api/auth/guest')).body.guestToken as string;
    expectDetailedError(
      await sb.http.get('/api/shop/cart').set({ Authorization: 'Bearer nope', 'X-Guest-Token': guest }),
      401,
      'Invalid or expired token',
      'the bearer token is refused: it is not a token this sandbox signed',
    );
  });
});
