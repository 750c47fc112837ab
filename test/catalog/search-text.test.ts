import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFixture } from '../../src/i18n/catalog-fixture.js';
import { lexicon } from '../../src/i18n/lexicon.js';
import { listingTitle } from '../../src/i18n/listing-text.js';
import { parseTextRef } from '../../src/i18n/text-ref.js';
import { normalize, wordsIn } from '../../src/i18n/text.js';
import type { ListingRecord } from '../../src/store/types.js';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed } from './helpers.js';
import { tierOf } from './text-match.js';

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  // Many searches from one address: no rate limit in the way.
  sb = await makeSandbox({ listings: 300, rateLimit: 0 });
  now = await freeze(sb);
});

const get = (query: string) => sb.http.get(`/api/shop/listings${query}`);
const ids = (res: { body: { listings: { id: string }[] } }) => res.body.listings.map((l) => l.id);
const others = () => lexicon().codes.filter((c) => c !== 'en');
/** The listed listings the search rule says `q` finds in `lang`. */
const matching = (q: string, lang: string) => listed(sb, now).filter((l) => tierOf(l, q, lang) !== undefined);
/** The longest word of a listing's title in `lang` (the one least likely to be anywhere else). */
const longestWord = (rec: ListingRecord, lang: string) =>
  wordsIn(listingTitle(rec, lang), lang).sort((a, b) => [...b].length - [...a].length)[0];
const seeded = () => listed(sb, now).filter((l) => l.text_ref !== undefined);

describe('GET /api/shop/listings?q=: the requested language and English', () => {
  it('finds a listing by a word of its title in each language, in any case and without accents', async () => {
    const target = seeded()[0];
    for (const lang of lexicon().codes) {
      const word = longestWord(target, lang);
      for (const form of [word, word.toUpperCase(), normalize(word)]) {
        const res = await get(`?q=${encodeURIComponent(form)}&lang=${lang}&limit=50`);
        expect(res.body.pagination.total, `${lang}: ${form}`).toBe(matching(form, lang).length);
        expect(ids(res), `${lang}: ${form}`).toContain(target.id);
      }
    }
  });

  it("reads only the requested language and English: another language's word finds only what those hold", async () => {
    let foreignOnly = 0;
    for (const rec of seeded().slice(0, 6)) {
      for (const lang of others()) {
        const word = longestWord(rec, lang);
        const english = await get(`?q=${encodeURIComponent(word)}&limit=50`);
        expect(english.body.pagination.total, `${lang} ${word} in en`).toBe(matching(word, 'en').length);
        if (tierOf(rec, word, 'en') === undefined) {
          expect(ids(english)).not.toContain(rec.id);
          foreignOnly += 1;
        }
        const own = await get(`?q=${encodeURIComponent(word)}&lang=${lang}&limit=50`);
        expect(own.body.pagination.total, `${lang} ${word}`).toBe(matching(word, lang).length);
      }
    }
    expect(foreignOnly).toBeGreaterThan(10);
  });

  it('matches whole words, and the start of a word only from three letters (`am` is no `Amplifier`)', async () => {
    const word = seeded()
      .flatMap((l) => wordsIn(l.title, 'en'))
      .find((w) => /^[a-z]{5,}$/.test(w))!;
    for (const q of [word.slice(0, 2), word.slice(0, 3), word, 'am', 'zzzqqq']) {
      const res = await get(`?q=${q}&limit=50`);
      expect(res.body.pagination.total, q).toBe(matching(q, 'en').length);
    }
    const two = await get(`?q=${word.slice(0, 2)}&limit=50`);
    for (const l of two.body.listings)
      expect(wordsIn(`${l.title} ${l.description}`, 'en'), word.slice(0, 2)).toContain(word.slice(0, 2));
    expect((await get(`?q=${word.slice(0, 3)}`)).body.pagination.total).toBeGreaterThan(0);
    expectError(await get(`?q=${'x'.repeat(201)}`), 400, /query.q/);
  });

  it('q=lamp finds only listings whose English text has a word starting with lamp', async () => {
    const res = await get('?q=lamp&limit=50');
    expect(res.body.pagination.total).toBe(matching('lamp', 'en').length);
    for (const l of res.body.listings) expect(`${l.title} ${l.description}`).toMatch(/(^|[^\p{L}])lamp/iu);
  });

  it('needs every word (AND), and searches descriptions', async () => {
    const rec = seeded()[1];
    const title = wordsIn(rec.title, 'en').filter((w) => w.length > 3);
    const described = wordsIn(rec.description ?? '', 'en').filter((w) => w.length > 5 && !title.includes(w));
    const q = `${title[0]} ${described[0]}`;
    const res = await get(`?q=${encodeURIComponent(q)}&limit=50`);
    expect(res.body.pagination.total).toBe(matching(q, 'en').length);
    expect(ids(res)).toContain(rec.id);
    expect((await get(`?q=${title[0]}%20zzzqqq`)).body.pagination.total).toBe(0);
  });

  it('ranks whole title words first, then starts of title words, then the description', async () => {
    const words = ['new', 'use', 'set', 'pro', 'with', 'black', 'bla', 'the'];
    for (const q of words) {
      for (const lang of ['en', 'de']) {
        const res = await get(`?q=${q}&lang=${lang}&limit=50`);
        const byId = new Map(listed(sb, now).map((l) => [l.id, l]));
        const tiers = (featured: boolean) =>
          res.body.listings
            .filter((l: { is_featured: boolean }) => l.is_featured === featured)
            .map((l: { id: string }) => tierOf(byId.get(l.id)!, q, lang)!);
        for (const part of [tiers(true), tiers(false)])
          expect(part, `${q} ${lang}`).toEqual([...part].sort());
      }
    }
  });

  it('segments Chinese and Japanese queries as the texts are segmented', async () => {
    const target = seeded().find(
      (l) => wordsIn(listingTitle(l, 'zh'), 'zh').filter((w) => /\p{Script=Han}/u.test(w)).length >= 2,
    )!;
    const han = wordsIn(listingTitle(target, 'zh'), 'zh').filter((w) => /\p{Script=Han}/u.test(w));
    const q = han.slice(0, 2).join('');
    const res = await get(`?q=${encodeURIComponent(q)}&lang=zh&limit=50`);
    expect(res.body.pagination.total).toBe(matching(q, 'zh').length);
    expect(ids(res)).toContain(target.id);
  });
});

describe('lang: titles and descriptions from the item template', () => {
  it('gives a seeded listing its template text in every language, with its variants in that language', async () => {
    const target = seeded().find((l) => parseTextRef(l.text_ref!).variants.length > 0)!;
    const ref = parseTextRef(target.text_ref!);
    const template = catalogFixture().byId.get(ref.template)!;
    for (const lang of lexicon().codes) {
      const res = await sb.http.get(`/api/shop/listings/${target.id}?lang=${lang}`);
      expect(res.status).toBe(200);
      expect(res.body.title, lang).toContain(template.text[lang].title);
      expect(res.body.description, lang).toBe(template.text[lang].description);
      expect(res.body.title, lang).not.toMatch(/[{}]/);
    }
    const search = await get(`?q=${encodeURIComponent(longestWord(target, 'ja'))}&lang=ja&limit=50`);
    const hit = search.body.listings.find((l: { id: string }) => l.id === target.id);
    expect(hit.title).toContain(template.text.ja.title);
  });

  it('answers an unsupported lang in English with a warning, and a code in capitals as that code', async () => {
    const titles = (res: { body: { listings: { title: string }[] } }) =>
      res.body.listings.map((l) => l.title);
    const xx = await get('?lang=xx');
    expect(titles(xx)).toEqual(titles(await get('?lang=en')));
    expect(xx.headers['x-sandbox-warning']).toBe('lang "xx" is not a supported language: answered in en');
    const categories = await sb.http.get('/api/shop/categories?lang=english');
    expect(categories.body).toEqual((await sb.http.get('/api/shop/categories')).body);
    expect(categories.headers['x-sandbox-warning']).toMatch(/^lang "english" is not a supported language/);
    const id = listed(sb, now)[0].id;
    const upper = await sb.http.get(`/api/shop/listings/${id}?lang=DE`);
    expect(upper.body.title).toBe((await sb.http.get(`/api/shop/listings/${id}?lang=de`)).body.title);
    expect(upper.headers['x-sandbox-warning']).toBeUndefined();
  });
});

describe('expiry and stock', () => {
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
