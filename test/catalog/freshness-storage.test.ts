import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accounts, makeSandbox } from '../helpers/sandbox.js';
import { PNG_1X1 } from './helpers.js';

const key = `Bearer ${accounts.seller.apiKey}`;

describe('index freshness', () => {
  it('forgets created listings on reset and sees stock changes at once', async () => {
    const local = await makeSandbox();
    const made = await local.http
      .post('/api/shop/listings')
      .set('Authorization', key)
      .send({ type: 'mall', title: 'Quuxable Lamp', category: 'decor', price_cents: 100 });
    expect((await local.http.get('/api/shop/listings?q=quuxable')).body.pagination.total).toBe(1);
    local.world.store.mutate((db) => {
      db.listings[made.body.id].quantity_available = 0;
    });
    expect((await local.http.get('/api/shop/listings?q=quuxable')).body.pagination.total).toBe(0);
    await local.http.post('/__sandbox/reset');
    expect((await local.http.get('/api/shop/listings?q=quuxable')).body.pagination.total).toBe(0);
    expect((await local.http.get(`/api/shop/listings/${made.body.id}`)).status).toBe(404);
  });
});

describe('uploads on a file-backed store', () => {
  it('keeps the bytes beside the data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbx-uploads-'));
    try {
      const local = await makeSandbox({ inMemory: false, dataFile: join(dir, 'db.json') });
      const res = await local.http
        .post('/api/shop/upload')
        .set('Authorization', key)
        .attach('images', PNG_1X1, 'a.png');
      expect(res.status).toBe(201);
      const name = new URL(res.body.urls[0]).pathname.split('/').pop()!;
      expect(readFileSync(join(dir, 'uploads', name)).equals(PNG_1X1)).toBe(true);
      const back = await local.http.get(`/uploads/${name}`).buffer(true);
      expect((back.body as Buffer).equals(PNG_1X1)).toBe(true);
      await local.world.store.flush();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
