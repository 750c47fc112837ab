import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accounts, makeSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, keyOf, ledgerSum } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a parallel burst of checkouts', () => {
  it('50 checkouts that only partly fit: nothing lost, nothing doubled, never negative', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'money-burst-'));
    dirs.push(dir);
    // A file-backed store, so every checkout awaits a (shared) flush and requests really interleave.
    const sb = await makeSandbox({ inMemory: false, dataFile: join(dir, 'db.json') });
    const initial = balanceOf(sb, accounts.buyer.email);
    const sellerInitial = balanceOf(sb, accounts.seller.email);
    const listing = addListing(sb, { price_cents: 3000, quantity_available: 40 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        sb.http
          .post('/api/shop/checkout')
          .set('Authorization', keyOf('buyer'))
          .send({ cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup' }),
      ),
    );
    const wallet = responses.filter((r) => r.status === 200 && r.body.paymentMethod === 'credit_wallet');
    const provider = responses.filter((r) => r.status === 200 && r.body.paymentMethod === 'payprovider');
    const soldOut = responses.filter((r) => r.status === 409);
    expect(wallet.length + provider.length + soldOut.length).toBe(50);
    // 100000 / 3000: 33 fit the wallet; the other 7 of the 40 units go to the provider; 10 find no stock.
    expect(wallet).toHaveLength(33);
    expect(provider).toHaveLength(7);
    expect(soldOut).toHaveLength(10);
    const deducted = wallet.reduce((sum, r) => sum + (r.body.deducted as number), 0);
    const final = balanceOf(sb, accounts.buyer.email);
    expect(final).toBe(initial - deducted);
    expect(final).toBeGreaterThanOrEqual(0);
    expect(ledgerSum(sb, accounts.buyer.email)).toBe(final);
    expect(sb.world.store.db.listings[listing.id].quantity_available).toBe(0);
    expect(Object.keys(sb.world.store.db.orders)).toHaveLength(40);
    expect(new Set(responses.filter((r) => r.status === 200).map((r) => r.body.orderId)).size).toBe(40);
    // The seller got every wallet sale minus 5% (150 cents of 3000).
    expect(balanceOf(sb, accounts.seller.email)).toBe(sellerInitial + 33 * 2850);
    await sb.world.store.flush();
  });

  it('parallel provider approvals of one payment: exactly one wins', async () => {
    const sb = await makeSandbox();
    const listing = addListing(sb, { price_cents: 1000 });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send({ cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup' });
    const before = balanceOf(sb, accounts.seller.email);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sb.http.post(`/__sandbox/payprovider/${res.body.paymentId}/approve`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(balanceOf(sb, accounts.seller.email)).toBe(before + 950);
  });
});
