import { beforeAll, describe, expect, it } from 'vitest';
import { lexicon } from '../../src/i18n/lexicon.js';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await makeSandbox({ listings: 300 });
});

const CODES = [
  'ar',
  'de',
  'en',
  'es',
  'fa',
  'fr',
  'hi',
  'ja',
  'ko',
  'pt',
  'ru',
  'sv',
  'tl',
  'tr',
  'ur',
  'vi',
  'zh',
];

describe('GET /locales/shop-{lang}.json', () => {
  it('serves all 17 codes with the same ≥60 keys and real translations', async () => {
    const en = (await sb.http.get('/locales/shop-en.json')).body as Record<string, string>;
    const keys = Object.keys(en).sort();
    expect(keys.length).toBeGreaterThanOrEqual(60);
    for (const code of CODES) {
      const res = await sb.http.get(`/locales/shop-${code}.json`);
      expect(res.status, code).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(Object.keys(res.body).sort(), code).toEqual(keys);
      if (code !== 'en') {
        const same = keys.filter((k) => res.body[k] === en[k]).length;
        expect(same, code).toBeLessThan(keys.length / 4);
      }
    }
  });

  it('sends ETag and Cache-Control, and 304 for a matching If-None-Match', async () => {
    const res = await sb.http.get('/locales/shop-de.json');
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await sb.http.get('/locales/shop-de.json').set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    const fr = await sb.http.get('/locales/shop-fr.json');
    expect(fr.headers.etag).not.toBe(res.headers.etag);
  });

  it('answers 404 {error} for an unknown code or a path trick', async () => {
    for (const path of [
      '/locales/shop-xx.json',
      '/locales/shop-EN.json',
      '/locales/shop-..%2Fcategories.json',
      '/locales/shop-../categories.json',
      '/locales/shop-en.json/x',
      '/locales/shop-en.js',
      '/locales/../fixtures/categories.json',
      '/locales/shop-%00.json',
    ]) {
      const res = await sb.http.get(path);
      expect(res.status, path).toBe(404);
      expect(Object.keys(res.body), path).toEqual(['error']);
    }
  });
});

describe('POST /api/shop/assistant', () => {
  const ask = (message: string, history: object[] = []) =>
    sb.http.post('/api/shop/assistant').send({ message, history });
  const v = () => lexicon().vocabulary;

  it('answers in the language of the message with listings from the search', async () => {
    const cases: [string, string][] = [
      ['I am looking for a wallet', 'en'],
      [`Ich suche eine ${v().wallet.de}`, 'de'],
      [`Busco una ${v().wallet.es} por favor`, 'es'],
      [`${v().wallet.ja}を探しています`, 'ja'],
      [`Я ищу ${v().wallet.ru}`, 'ru'],
      [`أبحث عن ${v().wallet.ar}`, 'ar'],
      [`${v().wallet.zh}`, 'zh'],
      [`${v().wallet.ko} 찾고 있어요`, 'ko'],
      [`मुझे ${v().wallet.hi} चाहिए`, 'hi'],
    ];
    for (const [message, lang] of cases) {
      const res = await ask(message);
      expect(res.status, message).toBe(200);
      expect(res.headers['content-language'], message).toBe(lang);
      expect(Object.keys(res.body).sort()).toEqual(['listings', 'reply']);
      expect(res.body.listings.length, message).toBeGreaterThan(0);
      expect(res.body.listings.length).toBeLessThanOrEqual(5);
      expect(res.body.reply).not.toMatch(/\{count\}|\{query\}/);
    }
  });

  it('says so when nothing matches, greets without search words, and uses the history', async () => {
    const none = await ask('zzzqqq');
    expect(none.body.listings).toEqual([]);
    expect(none.body.reply).toContain('zzzqqq');
    const hello = await ask('hello');
    expect(hello.body.listings).toEqual([]);
    expect(hello.headers['content-language']).toBe('en');
    const follow = await ask('please', [
      { role: 'user', content: 'wallet' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(follow.body.listings.length).toBeGreaterThan(0);
  });

  it('validates the body', async () => {
    expectError(await sb.http.post('/api/shop/assistant').send({}), 400, 'body.message is required');
    expectError(await sb.http.post('/api/shop/assistant').send({ message: '' }), 400, /body.message/);
    expectError(await ask('hi', [{ role: 'system', content: 'x' }]), 400, /body.history/);
  });
});
