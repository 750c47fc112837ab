import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts } from '../helpers/sandbox.js';
import { fileSandbox } from './file-sandbox.js';

/**
 * Class: durable write cost that grows with the data. A commit writes what changed, not the
 * collections it touched, so the bytes a write appends to the change log stay the same however
 * long the ledger, the user list or the payments grow. (Throughput over 20,000 fundings is the
 * bench's long-ledger row; here the bytes, which do not depend on the machine.)
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'hardening-bytes-'));
  dirs.push(dir);
  const dataFile = join(dir, 'db.json');
  return { log: `${dataFile}.changes`, sb: await fileSandbox(dataFile) };
}

/** Bytes each of `count` acknowledged writes appended to the change log, in order. */
async function appended(log: string, count: number, write: (i: number) => Promise<{ status: number }>) {
  const sizes: number[] = [];
  let size = statSync(log).size;
  for (let i = 0; i < count; i++) {
    const res = await write(i);
    expect(res.status, `write ${i}`).toBeLessThan(300);
    const now = statSync(log).size;
    sizes.push(now - size);
    size = now;
  }
  return sizes;
}

/** The last writes append no more than the first (a few bytes for longer numbers aside). */
function expectFlat(sizes: number[], window: number): void {
  const first = Math.max(...sizes.slice(0, window));
  const last = Math.max(...sizes.slice(-window));
  expect(
    last,
    `first ${window}: ≤ ${first} bytes; last: ${sizes.slice(-window).join(',')}`,
  ).toBeLessThanOrEqual(first + 16);
  expect(Math.min(...sizes), 'no compaction in between').toBeGreaterThan(0);
}

describe('bytes per acknowledged write do not grow with the data', () => {
  it('fundings: one user and one ledger entry, however long the ledger', async () => {
    const { log, sb } = await sandbox();
    const url = `/__sandbox/wallets/${accounts.buyer.email}/fund`;
    const sizes = await appended(log, 300, () => sb.http.post(url).send({ amount_cents: 1 }));
    expectFlat(sizes, 30);
    expect(sizes[0]).toBeLessThan(2000);
    await sb.close();
  });

  it('registrations: one user, however many users', async () => {
    const { log, sb } = await sandbox();
    const sizes = await appended(log, 40, (i) =>
      sb.http.post('/api/auth/register').send({ email: `grow${i}@bytes.test`, password: 'grow-pass-123' }),
    );
    expectFlat(sizes, 8);
    await sb.close();
  });

  it('provider checkouts: one order, payment and listing, however many payments are pending', async () => {
    const { log, sb } = await sandbox();
    const page = await sb.http.get('/api/shop/listings?limit=50');
    const buyable = (page.body.listings as { id: string; type: string; quantity_available: number }[]).filter(
      (l) => (l.type === 'mall' || l.type === 'classifieds') && l.quantity_available > 0,
    );
    expect(buyable.length).toBeGreaterThan(20);
    const sizes = await appended(log, buyable.length, (i) =>
      sb.http
        .post('/api/shop/checkout')
        .set('Authorization', `Bearer ${accounts.broke.apiKey}`)
        .send({
          cartItems: [{ listing_id: buyable[i].id, quantity: 1 }],
          shippingAddress: { street: '1 Test Street', city: 'Berlin', zip: '10115' },
          paymentMethod: 'payprovider',
        }),
    );
    expectFlat(sizes, 5);
    await sb.close();
  });
});
