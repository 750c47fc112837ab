import { beforeAll, describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/api/listings/search.js';
import { ratesNow } from '../../src/api/wallet/rates.js';
import { listingTitle } from '../../src/i18n/listing-text.js';
import { wordsIn } from '../../src/i18n/text.js';
import type { ListingRecord } from '../../src/store/types.js';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed, usdOf } from './helpers.js';

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  sb = await makeSandbox({ listings: 300 });
  now = await freeze(sb);
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
  const byId = () => new Map(Object.values(sb.world.store.db.listings).map((l) => [l.id, l]));
  const seeded = () => Object.values(sb.world.store.db.listings).filter((l) => l.text_ref !== undefined);
  const longest = (rec: ListingRecord, lang: string) =>
    wordsIn(listingTitle(rec, lang), lang)
      .filter((w) => !/^\d+$/.test(w))
      .sort((a, b) => [...b].length - [...a].length)[0];

  it('answers in the language of the message with listings its words find in that language', async () => {
    const rec = seeded()[3];
    const messages: [string, (w: string) => string][] = [
      ['en', (w) => `I am looking for ${w}`],
      ['de', (w) => `Ich suche ${w}`],
      ['es', (w) => `Busco ${w} por favor`],
      ['ja', (w) => `${w}を探しています`],
      ['ru', (w) => `Я ищу ${w}`],
      ['ar', (w) => `أبحث عن ${w}`],
      ['zh', (w) => `我想买${w}`],
      ['ko', (w) => `${w} 찾고 있어요`],
      ['hi', (w) => `मुझे ${w} चाहिए`],
    ];
    for (const [lang, say] of messages) {
      const word = longest(rec, lang);
      const res = await ask(say(word));
      expect(res.status, say(word)).toBe(200);
      expect(res.headers['content-language'], say(word)).toBe(lang);
      expect(Object.keys(res.body).sort()).toEqual(['listings', 'reply']);
      expect(res.body.listings.length, say(word)).toBeGreaterThan(0);
      expect(res.body.listings.length).toBeLessThanOrEqual(5);
      // Found by the word as the search finds it, or in the category it names (`حقيبة`, a bag).
      const searched = await sb.http.get(
        `/api/shop/listings?q=${encodeURIComponent(word)}&lang=${lang}&limit=50`,
      );
      const byWord = new Set(searched.body.listings.map((l: { id: string }) => l.id));
      for (const l of res.body.listings) {
        const found = byId().get(l.id)!;
        if (found.category !== rec.category) expect(byWord.has(found.id), say(word)).toBe(true);
      }
      expect(res.body.reply).not.toMatch(/\{count\}|\{query\}/);
    }
  });

  it('drops stopwords and reads a price bound: "I am looking for a lamp under 50 dollars"', async () => {
    const usd = usdOf(sb);
    for (const dollars of [50, 500]) {
      const res = await ask(`I am looking for a lamp under ${dollars} dollars`);
      expect(res.headers['content-language']).toBe('en');
      expect(res.body.reply).toContain('lamp');
      expect(res.body.reply).not.toMatch(/\bam\b/);
      const lamps = await sb.http.get(`/api/shop/listings?q=lamp&lang=en&maxPrice=${dollars}&limit=50`);
      const wanted = lamps.body.listings as ListingRecord[];
      if (dollars === 500) expect(wanted.length).toBeGreaterThan(0);
      if (wanted.length > 0) expect(res.body.reply).toContain(String(wanted.length));
      expect(res.body.listings.length).toBe(Math.min(5, wanted.length));
      for (const l of res.body.listings) expect(usd(l)).toBeLessThanOrEqual(dollars * 100);
    }
  });

  it('reads a city and a bound in euros: "Ich suche … in <city> unter … Euro"', async () => {
    const rec = seeded().find((l) => l.location_city === 'Berlin' && longest(l, 'de'))!;
    const word = longest(rec, 'de');
    const euros = Math.ceil((usdOf(sb)(rec) / 100) * 0.93) + 50;
    const res = await ask(`Ich suche ${word} in Berlin unter ${euros} Euro`);
    expect(res.headers['content-language']).toBe('de');
    expect(res.body.listings.map((l: { id: string }) => l.id)).toContain(rec.id);
    const rates = ratesNow(sb.world).rates;
    for (const l of res.body.listings) {
      expect(distanceKm(52.52, 13.405, l.lat, l.lng)).toBeLessThanOrEqual(30);
      expect(usdOf(sb)(l)).toBeLessThanOrEqual((euros / rates.get('EUR')!) * 100);
    }
    expect(res.body.reply).toContain('Berlin');
  });

  it('understands a word naming a category: "Ich suche ein Fahrrad in Berlin" shows the bicycles there', async () => {
    // Every bicycle listed within 30 km of Berlin: a Rennrad, Faltrad or E-Lastenrad as much as a Kinderfahrrad.
    const bicycles = listed(sb, now).filter(
      (l) => l.category === 'bicycles' && distanceKm(52.52, 13.405, l.lat!, l.lng!) <= 30,
    );
    const bikes = bicycles.filter((l) => /\bbike\b/.test(l.title));
    expect(bikes.length).toBeGreaterThan(1);
    const fahrrad = await ask('Ich suche ein Fahrrad in Berlin');
    expect(fahrrad.headers['content-language']).toBe('de');
    // The count in the language's grammar: one Angebot, several Angebote; the category's German name.
    expect(fahrrad.body.reply).toBe(`Ich habe ${bicycles.length} Angebote für „Fahrräder, Berlin“ gefunden.`);
    const shown = fahrrad.body.listings as { id: string; category: string }[];
    expect(shown).toHaveLength(Math.min(5, bicycles.length));
    for (const l of shown) expect(l.category).toBe('bicycles');
    // The bikes first, then what else the category holds (saddles, locks).
    const isBike = shown.map((l) => bikes.some((b) => b.id === l.id));
    expect(isBike).toEqual([...isBike].sort((a, b) => Number(b) - Number(a)));
    expect(isBike.filter(Boolean)).toHaveLength(Math.min(5, bikes.length));
    // The same request in English, and with a plural, answers the same listings.
    for (const message of ['I am looking for a bike in Berlin', 'Fahrräder in Berlin']) {
      const same = await ask(message);
      expect(
        same.body.listings.map((l: { id: string }) => l.id),
        message,
      ).toEqual(shown.map((l) => l.id));
    }
  });

  it('says so when nothing matches, greets without search words, and uses the history', async () => {
    const none = await ask('zzzqqq');
    expect(none.body.listings).toEqual([]);
    expect(none.body.reply).toContain('zzzqqq');
    const hello = await ask('hello');
    expect(hello.body.listings).toEqual([]);
    expect(hello.headers['content-language']).toBe('en');
    const word = longest(seeded()[0], 'en');
    const follow = await ask('please', [
      { role: 'user', content: word },
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
