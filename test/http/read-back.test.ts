import { describe, expect, it } from 'vitest';
import {
  accounts,
  expectDetailedError,
  expectError,
  makeSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

// A client must be able to send back what it read (issue 13, case 6; openapi.yaml NewListing):
// every field of a listing read is taken on create, the ones the sandbox sets (readOnly) ignored
// with a warning; --strict refuses what would be warned about. docs/errors.md, "Warnings".
const WARNING = 'x-sandbox-warning';
const count = (sb: TestSandbox) => Object.keys(sb.world.store.db.listings).length;

async function seller(sb: TestSandbox) {
  return sb.login(accounts.seller.email, accounts.seller.password);
}

async function create(sb: TestSandbox, body: Record<string, unknown>) {
  return sb.http
    .post('/api/shop/listings')
    .set('Authorization', await seller(sb))
    .send(body);
}

const lamp = { type: 'mall', title: 'Desk lamp', category: 'electronics', price_cents: 1500 };

describe('a listing read, sent back on create', () => {
  it('is taken whole: the fields the sandbox sets are ignored with a warning each', async () => {
    const sb = await makeSandbox();
    const made = await create(sb, { ...lamp, location_city: 'Berlin' });
    expect(made.status, made.text).toBe(201);
    const read = (await sb.http.get(`/api/shop/listings/${made.body.id}`)).body as Record<string, unknown>;
    expect(Object.keys(read)).toEqual(
      expect.arrayContaining(['id', 'lat', 'lng', 'store_slug', 'expires_at']),
    );
    const again = await create(sb, read);
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).not.toBe(read.id);
    const { id: _a, created_at: _b, expires_at: _c, ...kept } = read;
    const { id: _d, created_at: _e, expires_at: _f, ...copied } = again.body as Record<string, unknown>;
    expect(copied).toEqual(kept);
    expect(again.headers[WARNING]).toBe(
      'body.id is read-only: ignored; body.store_slug is read-only: ignored; body.created_at is read-only: ignored; ' +
        'body.expires_at is read-only: ignored; body.description null taken as absent; ' +
        'body.featured_payment_method null taken as absent',
    );
  });

  it('is a 400 naming the first read-only field under --strict, and nothing is created', async () => {
    const sb = await makeSandbox({ strict: true });
    const made = await create(sb, lamp);
    const read = (await sb.http.get(`/api/shop/listings/${made.body.id}`)).body as Record<string, unknown>;
    const before = count(sb);
    expectError(await create(sb, read), 400, 'body.id is read-only');
    const { id: _id, ...rest } = read;
    expectError(await create(sb, rest), 400, 'body.store_slug is read-only');
    expect(count(sb)).toBe(before);
  });
});

describe('lat and lng on create', () => {
  it('are the coordinates location search uses, and go together', async () => {
    const sb = await makeSandbox();
    const made = await create(sb, { ...lamp, title: 'Harbour lamp', lat: 53.5461, lng: 9.9661 });
    expect([made.status, made.body.lat, made.body.lng, made.body.location_city]).toEqual([
      201,
      53.5461,
      9.9661,
      null,
    ]);
    const near = await sb.http.get('/api/shop/listings?lat=53.55&lng=9.99&radius=5&q=harbour');
    expect(near.body.listings.map((l: { id: string }) => l.id)).toContain(made.body.id);
    expectError(
      await create(sb, { ...lamp, lat: 53.5 }),
      400,
      'body.lat and body.lng go together: send both or neither',
    );
    expectError(await create(sb, { ...lamp, lat: 91, lng: 0 }), 400, 'body.lat must be <= 90');
  });

  it('are absent when null, with a warning; --strict refuses null', async () => {
    const sb = await makeSandbox();
    const made = await create(sb, { ...lamp, location_city: 'Paris', lat: null, lng: null });
    expect([made.status, made.body.lat]).toEqual([201, 48.8566]);
    expect(made.headers[WARNING]).toBe('body.lat null taken as absent; body.lng null taken as absent');
    const strict = await makeSandbox({ strict: true });
    expectError(await create(strict, { ...lamp, lat: null, lng: null }), 400, 'body.lat must be number');
  });
});

describe('price_cents: null', () => {
  it('is no amount in either mode: Amount required where the type needs one, a budget of 0 where not', async () => {
    for (const strict of [false, true]) {
      const sb = await makeSandbox({ strict });
      const before = count(sb);
      const mall = await create(sb, { ...lamp, price_cents: null });
      expectDetailedError(
        mall,
        400,
        'Amount required',
        'body.price_cents is required for mall listings (0 for a free item)',
      );
      expect(mall.headers[WARNING]).toBeUndefined();
      expect(count(sb)).toBe(before);
      const budget = await create(sb, { ...lamp, type: 'reverse_auction', price_cents: null });
      expect([strict, budget.status, budget.body.price_cents, budget.headers[WARNING]]).toEqual([
        strict,
        201,
        0,
        undefined,
      ]);
    }
  });
});

describe('an empty referralCode at registration', () => {
  it('is no code: the account is created without a warning, in either mode', async () => {
    for (const strict of [false, true]) {
      const sb = await makeSandbox({ strict });
      for (const [i, code] of ['', '  '].entries()) {
        const res = await sb.http
          .post('/api/auth/register')
          .send({ email: `form${i}@example.com`, password: 'long-enough-1', referralCode: code });
        expect([strict, code, res.status, res.headers[WARNING]]).toEqual([strict, code, 201, undefined]);
      }
      const unknown = await sb.http
        .post('/api/auth/register')
        .send({ email: 'other@example.com', password: 'long-enough-1', referralCode: 'NOPE' });
      expect(unknown.status).toBe(strict ? 400 : 201);
    }
  });
});
