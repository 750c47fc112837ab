import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/process/config.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const total = async (sb: TestSandbox, query = '') =>
  (await sb.http.get(`/api/shop/listings${query}`)).body.pagination.total as number;

/** Creates a listing as the seller test account, through POST /api/shop/listings. */
async function sell(sb: TestSandbox, fields: Record<string, unknown>) {
  const res = await sb.http
    .post('/api/shop/listings')
    .set('Authorization', `Bearer ${accounts.seller.apiKey}`)
    .send({ type: 'mall', category: 'kitchen', price_cents: 1500, quantity_available: 3, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; created_at: string; expires_at: string };
}

describe('the seeded catalogue does not empty as sandbox time runs', () => {
  it('stays within 10% of its size after +25 h and +400 days (the default seed)', async () => {
    const sb = await makeSandbox({ listings: defaultConfig.listings, rateLimit: 0 });
    await freeze(sb);
    const start = await total(sb);
    expect(start).toBeGreaterThan(400);
    for (const step of ['25h', '400d', '3650d']) {
      await sb.http.post('/__sandbox/clock').send({ advance: step });
      const now = await total(sb);
      expect(now, `after +${step}`).toBeGreaterThanOrEqual(Math.floor(start * 0.9));
      expect(now, `after +${step}`).toBeLessThanOrEqual(Math.ceil(start * 1.1));
    }
  });

  it('relists a seeded listing at the end of its term: new created_at and expires_at, in the search again', async () => {
    const sb = await makeSandbox({ rateLimit: 0 });
    const start = await freeze(sb);
    // One whose first term ends in the coming day but not within the hour: 25 h later it is in its next term.
    const oneDay = Object.values(sb.world.store.db.listings).find(
      (l) =>
        l.duration === '1day' &&
        l.text_ref !== undefined &&
        l.quantity_available > 0 &&
        Date.parse(l.created_at) + DAY > start + 2 * HOUR,
    )!;
    const first = (await sb.http.get(`/api/shop/listings/${oneDay.id}`)).body;
    expect(Date.parse(first.expires_at)).toBeGreaterThan(start);
    await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    const now = start + 25 * HOUR;
    const again = (await sb.http.get(`/api/shop/listings/${oneDay.id}`)).body;
    expect(again.created_at).toBe(first.expires_at);
    expect(Date.parse(again.expires_at) - Date.parse(again.created_at)).toBe(DAY);
    expect(Date.parse(again.created_at)).toBeLessThanOrEqual(now);
    expect(Date.parse(again.expires_at)).toBeGreaterThan(now);
    const newest = (await sb.http.get('/api/shop/listings?limit=50')).body.listings as { id: string }[];
    expect(newest.map((l) => l.id)).toContain(oneDay.id);
    const bought = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`)
      .send({ cartItems: [{ listing_id: oneDay.id, quantity: 1 }], deliveryMethod: 'pickup' });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  });

  it('lets a user listing end as its duration says: out of the search, readable by id, no longer for sale', async () => {
    const sb = await makeSandbox({ rateLimit: 0 });
    await freeze(sb);
    const made = await sell(sb, { title: 'Quuxbrand egg timer', duration: '1day' });
    expect(Date.parse(made.expires_at) - Date.parse(made.created_at)).toBe(DAY);
    expect(await total(sb, '?q=quuxbrand')).toBe(1);
    await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    expect(await total(sb, '?q=quuxbrand')).toBe(0);
    const read = await sb.http.get(`/api/shop/listings/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ created_at: made.created_at, expires_at: made.expires_at });
    const bought = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`)
      .send({ cartItems: [{ listing_id: made.id, quantity: 1 }], deliveryMethod: 'pickup' });
    expectError(bought, 409, `Listing ${made.id} is no longer active (its duration has ended)`);
  });

  it('undoes the rounds when the clock is set back, and answers the same whatever the order of reads', async () => {
    const sb = await makeSandbox({ rateLimit: 0 });
    const start = await freeze(sb);
    // Ids and terms (image URLs carry the port of each supertest request).
    const at = async () => {
      const { listings, pagination } = (await sb.http.get('/api/shop/listings?limit=50&sort=ending_soon'))
        .body;
      const terms = (listings as { id: string; created_at: string; expires_at: string }[]).map(
        (l) => `${l.id} ${l.created_at} ${l.expires_at}`,
      );
      return { terms, pagination };
    };
    const before = await at();
    await sb.http.post('/__sandbox/clock').send({ advance: '30d' });
    await at();
    await sb.http.post('/__sandbox/clock').send({ set: new Date(start).toISOString() });
    expect(await at()).toEqual(before);
  });
});
