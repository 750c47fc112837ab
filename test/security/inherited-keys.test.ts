import { describe, expect, it } from 'vitest';
import { expectError, makeSandbox } from '../helpers/sandbox.js';

/** Names every plain object inherits: a lookup by a key from the request must never find them. */
const INHERITED = ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__'];

describe('keys taken from a request never reach inherited properties', () => {
  it('answers 404 for a store slug that names an Object.prototype property', async () => {
    const sb = await makeSandbox();
    for (const slug of INHERITED) {
      const res = await sb.http.get(`/api/shop/stores/${slug}`);
      expect(res.status, slug).toBe(404);
      expectError(res, 404);
    }
    expect((await sb.http.get('/api/shop/stores/sandbox-seller')).status).toBe(200);
  });

  it('answers 404 on the provider page for such a payment id', async () => {
    const sb = await makeSandbox();
    for (const id of INHERITED) {
      const res = await sb.http.get(`/sandbox/payprovider/${id}`);
      expect(res.status, id).toBe(404);
    }
  });

  it('keeps collections free of a prototype after a reset too', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/reset');
    const { db } = sb.world.store;
    for (const name of ['users', 'stores', 'listings', 'orders', 'payments', 'carts'] as const)
      expect(Object.getPrototypeOf(db[name]), name).toBeNull();
    expect((await sb.http.get('/api/shop/stores/toString')).status).toBe(404);
  });
});
