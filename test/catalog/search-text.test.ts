import { beforeAll, describe, expect, it } from 'vitest';
import { lexicon } from '../../src/i18n/lexicon.js';
import { translateTitle } from '../../src/i18n/translate.js';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed } from './helpers.js';

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  sb = await makeSandbox({ listings: 300 });
  now = await freeze(sb);
});

const get = (query: string) => sb.http.get(`/api/shop/listings${query}`);
const vocab = () => lexicon().vocabulary;

describe('GET /api/shop/listings?q=: text search across translations', () => {
  it('finds a title word in English, in every other language, in any case and without accents', async () => {
    const target = listed(sb, now).find((l) => l.title === 'Vintage Leather Wallet')!;
    const expected = listed(sb, now).filter((l) => /\bwallet/i.test(`${l.title} ${l.description}`)).length;
    const english = await get('?q=wallet&limit=50');
    expect(english.body.pagination.total).toBe(expected);
    expect(english.body.listings.map((l: { id: string }) => l.id)).toContain(target.id);
    for (const lang of lexicon().codes.filter((c) => c !== 'en')) {
      const word = vocab().wallet[lang];
      const res = await get(`?q=${encodeURIComponent(word.toUpperCase())}&limit=50`);
      expect(
        res.body.listings.map((l: { id: string }) => l.id),
        `${lang}: ${word}`,
      ).toContain(target.id);
    }
    const accented = vocab().leather.fr; // cuir has no accent; use a word that has one
    expect(accented.length).toBeGreaterThan(0);
    const withAccent = Object.entries(vocab()).find(([, t]) => /[éèáíóú]/.test(t.es ?? ''));
    if (withAccent) {
      const [key, t] = withAccent;
      const plain = t.es.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      const a = await get(`?q=${encodeURIComponent(t.es)}&limit=1`);
      const b = await get(`?q=${encodeURIComponent(plain)}&limit=1`);
      const c = await get(`?q=${encodeURIComponent(key)}&limit=1`);
      expect(a.body.pagination.total).toBe(b.body.pagination.total);
      expect(b.body.pagination.total).toBeGreaterThanOrEqual(c.body.pagination.total);
    }
  });

  it('matches word prefixes, needs every word, and searches descriptions', async () => {
    const wal = await get('?q=walle&limit=50');
    expect(wal.body.pagination.total).toBeGreaterThanOrEqual((await get('?q=wallet')).body.pagination.total);
    const both = await get('?q=vintage%20wallet&limit=50');
    for (const l of both.body.listings) {
      expect(`${l.title} ${l.description}`.toLowerCase()).toMatch(/vintage/);
      expect(`${l.title} ${l.description}`.toLowerCase()).toMatch(/wallet/);
    }
    const described = listed(sb, now).filter((l) => l.description?.includes('smoke-free')).length;
    expect((await get('?q=smoke&limit=1')).body.pagination.total).toBe(described);
    expect((await get('?q=zzzqqq')).body.pagination.total).toBe(0);
    expectError(await get(`?q=${'x'.repeat(201)}`), 400, /query.q/);
  });

  it('segments Chinese and Japanese queries against the vocabulary', async () => {
    const query = `${vocab().vintage.zh}${vocab().wallet.zh}`;
    const res = await get(`?q=${encodeURIComponent(query)}&limit=50`);
    const ids = res.body.listings.map((l: { id: string }) => l.id);
    expect(ids).toContain(listed(sb, now).find((l) => l.title === 'Vintage Leather Wallet')!.id);
  });
});

describe('lang: translated titles, descriptions and validation', () => {
  it('returns titles and descriptions in the requested language', async () => {
    const target = listed(sb, now).find((l) => l.title === 'Vintage Leather Wallet')!;
    const res = await sb.http.get(`/api/shop/listings/${target.id}?lang=de`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe(translateTitle('Vintage Leather Wallet', 'de'));
    expect(res.body.title.toLowerCase()).toContain(vocab().wallet.de.toLowerCase());
    const phrase = lexicon().phrases.find((p) => p.en === 'Item is in excellent condition.')!;
    expect(res.body.description).toContain(phrase.de);
    const search = await get(`?q=wallet&lang=ja&limit=50`);
    const hit = search.body.listings.find((l: { id: string }) => l.id === target.id);
    expect(hit.title).toContain(vocab().wallet.ja);
  });

  it('refuses an unsupported lang with 400 everywhere', async () => {
    expectError(await get('?lang=xx'), 400, /query.lang/);
    expectError(await sb.http.get('/api/shop/categories?lang=english'), 400, /query.lang/);
    const id = listed(sb, now)[0].id;
    expectError(await sb.http.get(`/api/shop/listings/${id}?lang=EN`), 400, /query.lang/);
  });
});

describe('expiry and stock', () => {
  it('drops listings past their duration on the sandbox clock, but keeps them readable by id', async () => {
    const local = await makeSandbox();
    const start = await freeze(local);
    const before = (await local.http.get('/api/shop/listings?type=mall')).body.pagination.total;
    const oneDay = Object.values(local.world.store.db.listings).find(
      (l) => l.duration === '1day' && Date.parse(l.created_at) + 86_400_000 > start,
    )!;
    await local.http.post('/__sandbox/clock').send({ advance: '25h' });
    const ids = (await local.http.get('/api/shop/listings?limit=50&page=1')).body.listings.map(
      (l: { id: string }) => l.id,
    );
    expect(ids).not.toContain(oneDay.id);
    const read = await local.http.get(`/api/shop/listings/${oneDay.id}`);
    expect(read.status).toBe(200);
    expect(Date.parse(read.body.expires_at)).toBeLessThan(start + 25 * 3_600_000);
    await local.http.post('/__sandbox/clock').send({ advance: '400d' });
    expect((await local.http.get('/api/shop/listings')).body.pagination.total).toBe(0);
    expect(before).toBeGreaterThan(0);
  });

  it('hides sold-out listings (quantity 0) from the search, not from reads', async () => {
    const local = await makeSandbox();
    const start = await freeze(local);
    const single = listed(local, start).find((l) => l.quantity_available === 1)!;
    local.world.store.mutate((db) => {
      db.listings[single.id].quantity_available = 0;
    });
    const all = (await local.http.get('/api/shop/listings?limit=50&page=1')).body.pagination.total;
    expect(all).toBe(listed(local, start).length);
    expect((await local.http.get(`/api/shop/listings/${single.id}`)).body.quantity_available).toBe(0);
  });
});
