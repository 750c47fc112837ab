import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFixture } from '../../src/i18n/catalog-fixture.js';
import { lexicon } from '../../src/i18n/lexicon.js';
import { listingTitle } from '../../src/i18n/listing-text.js';
import { normalize } from '../../src/i18n/text.js';
import { parseTextRef } from '../../src/i18n/text-ref.js';
import type { ListingRecord } from '../../src/store/types.js';
import { computeRates } from '../../src/api/wallet/rates.js';
import { SEED_ANCHOR } from '../../src/seed/seed.js';
import { makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze } from './helpers.js';

/** Conditions from the cheapest to the dearest (fixtures/catalog/README.md, `price_usd`). */
const RANK = ['for-parts', 'used', 'refurbished', 'like-new', 'new'];

const conditionOf = (rec: ListingRecord) =>
  parseTextRef(rec.text_ref!).variants.find(([a]) => a === 'condition')?.[1];

let sb: TestSandbox;
let large: TestSandbox;
beforeAll(async () => {
  // The default seed, as `npm start` makes it, and a large one where items repeat in every condition.
  sb = await makeSandbox({ listings: 500, seed: 42, rateLimit: 0 });
  large = await makeSandbox({ listings: 6000, seed: 7, rateLimit: 0 });
  await freeze(sb);
});

/** Every listing of the default search, read through the API a page of 50 at a time. */
async function everyListed(): Promise<ListingRecord[]> {
  const all: ListingRecord[] = [];
  for (let page = 1; ; page += 1) {
    const res = await sb.http.get(`/api/shop/listings?limit=50&page=${page}`);
    all.push(...(res.body.listings as ListingRecord[]));
    if (page >= res.body.pagination.totalPages) return all;
  }
}

describe('a used item is one piece', () => {
  it('a shop lists one of a used, like-new or for-parts item and at most 5 refurbished units', async () => {
    const shown = await everyListed();
    const db = sb.world.store.db;
    let used = 0;
    for (const l of shown) {
      const rec = db.listings[l.id];
      if (!rec.text_ref) continue;
      const condition = conditionOf(rec);
      if (condition === 'refurbished') expect(l.quantity_available, l.title).toBeLessThanOrEqual(5);
      else if (condition !== undefined && condition !== 'new') {
        used += 1;
        expect(l.quantity_available, l.title).toBe(1);
      }
    }
    expect(used).toBeGreaterThan(20);
    for (const rec of Object.values(large.world.store.db.listings)) {
      if (!rec.text_ref) continue;
      const condition = conditionOf(rec);
      if (condition === 'refurbished') expect(rec.quantity_available, rec.title).toBeLessThanOrEqual(5);
      else if (condition !== undefined && condition !== 'new')
        expect(rec.quantity_available, rec.title).toBe(1);
    }
  });
});

describe('a price follows the condition', () => {
  it('an item in a cheaper condition never costs more than the same item, in the same currency, in a dearer one', () => {
    // Per template and currency, the dearest listing of each condition and the cheapest.
    const spans = new Map<string, Map<number, { low: number; high: number }>>();
    for (const rec of Object.values(large.world.store.db.listings)) {
      const condition = rec.text_ref ? conditionOf(rec) : undefined;
      if (condition === undefined || rec.price_cents === 0) continue;
      const key = `${parseTextRef(rec.text_ref!).template} ${rec.currency}`;
      const byRank = spans.get(key) ?? new Map<number, { low: number; high: number }>();
      const rank = RANK.indexOf(condition);
      const span = byRank.get(rank) ?? { low: Infinity, high: 0 };
      byRank.set(rank, {
        low: Math.min(span.low, rec.price_cents),
        high: Math.max(span.high, rec.price_cents),
      });
      spans.set(key, byRank);
    }
    let pairs = 0;
    const wrong: string[] = [];
    for (const [key, byRank] of spans) {
      const ranks = [...byRank.keys()].sort((a, b) => a - b);
      for (let i = 1; i < ranks.length; i += 1) {
        const cheaper = byRank.get(ranks[i - 1])!;
        const dearer = byRank.get(ranks[i])!;
        pairs += 1;
        // A shop's x.99 may sit a cent (a yen's 20) under the same amount asked by a person.
        if (cheaper.high > dearer.low * 1.01)
          wrong.push(
            `${key}: ${RANK[ranks[i - 1]]} up to ${cheaper.high}, ${RANK[ranks[i]]} from ${dearer.low}`,
          );
      }
    }
    expect(pairs).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  });
});

describe('pay and rents follow the country', () => {
  it('a job, a service or a home costs what its country pays, goods the same everywhere', () => {
    const rates = computeRates(7, Date.parse(SEED_ANCHOR)).rates;
    const usd = (l: ListingRecord) => l.price_cents / 100 / (rates.get(l.currency) ?? 1);
    // Per template, the mean USD price in the United States and in India, Pakistan and Kenya.
    const mean = new Map<string, { rich: number[]; poor: number[] }>();
    for (const l of Object.values(large.world.store.db.listings)) {
      const t = catalogFixture().byId.get(parseTextRef(l.text_ref!).template)!;
      const side =
        l.location_country === 'US'
          ? 'rich'
          : ['IN', 'PK', 'KE'].includes(l.location_country!)
            ? 'poor'
            : undefined;
      if (!side || l.price_cents === 0) continue;
      const kind = ['jobs-services', 'real-estate'].includes(t.category) ? 'local' : 'goods';
      const key = `${kind} ${t.id}`;
      const found = mean.get(key) ?? { rich: [], poor: [] };
      found[side].push(usd(l));
      mean.set(key, found);
    }
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratios = (kind: string) =>
      [...mean]
        .filter(([key, v]) => key.startsWith(kind) && v.rich.length > 0 && v.poor.length > 0)
        .map(([, v]) => avg(v.poor) / avg(v.rich));
    // A barista in Bengaluru earns about a tenth of one in New York; a phone costs the same.
    expect(ratios('local').length).toBeGreaterThan(5);
    for (const r of ratios('local')) expect(r).toBeLessThan(0.35);
    expect(avg(ratios('goods'))).toBeGreaterThan(0.7);
  });
});

describe('a wanted ad is written by a buyer', () => {
  it("describes what the buyer wants in every language, never the seller's text of the item", async () => {
    const { attributes } = catalogFixture();
    const wanted = Object.values(sb.world.store.db.listings).filter((l) => l.type === 'reverse_auction');
    expect(wanted.length).toBeGreaterThan(5);
    const used = new Set<string>();
    for (const lang of lexicon().codes)
      for (const rec of wanted) {
        const shown = (await sb.http.get(`/api/shop/listings/${rec.id}?lang=${lang}`)).body as ListingRecord;
        const template = catalogFixture().byId.get(parseTextRef(rec.text_ref!).template)!;
        expect(attributes.wanted_descriptions[lang], `${lang} ${shown.title}`).toContain(shown.description);
        expect(shown.description).not.toBe(template.text[lang].description);
        used.add(`${lang} ${shown.description}`);
      }
    // Not all the same words: each language's buyer texts take turns.
    expect(used.size).toBeGreaterThan(lexicon().codes.length);
    // And the search finds a wanted ad by the words it shows, not by the template's.
    const ad = wanted[0];
    const buyerWord = /private buyer/.test(ad.description!) ? 'private buyer' : 'photos';
    const found = await sb.http.get(
      `/api/shop/listings?q=${encodeURIComponent(buyerWord)}&type=reverse_auction&limit=50`,
    );
    expect(found.body.listings.map((l: ListingRecord) => l.id)).toContain(ad.id);
  });
});

describe("a wanted ad's title as a native speaker writes it", () => {
  it('puts the item after the wording in the case and capitalisation the language uses', async () => {
    const wanted = Object.values(sb.world.store.db.listings).filter((l) => l.type === 'reverse_auction');
    // The wording, then the item: lower case unless a name starts it; Russian in the accusative.
    const start: Record<string, RegExp> = {
      es: /^Busco \S/,
      pt: /^Procuro \S/,
      fr: /^Recherche : \S/,
      ru: /^Куплю \S/,
      sv: /^Köpes: \S/,
      vi: /^Cần mua \S/,
    };
    let accusative = 0;
    for (const rec of wanted) {
      const t = catalogFixture().byId.get(parseTextRef(rec.text_ref!).template)!;
      for (const [lang, pattern] of Object.entries(start)) {
        const title = ((await sb.http.get(`/api/shop/listings/${rec.id}?lang=${lang}`)).body as ListingRecord)
          .title;
        expect(title, lang).toMatch(pattern);
        const item = title.replace(/^(Busco|Procuro|Recherche :|Куплю|Köpes:|Cần mua) /, '');
        const named = t.names.some((name) => item.startsWith(name)) || /^\S*[\d\p{Lu}]\S*\p{Lu}/u.test(item);
        if (!named) expect(item[0], `${lang}: ${title}`).toBe(item[0].toLocaleLowerCase(lang));
        if (lang === 'ru' && t.text.ru.g === 'f') {
          accusative += 1;
          expect(item, title).toContain(t.text.ru.acc);
          expect(item, title).not.toMatch(/ая(,|$)/);
        }
      }
    }
    expect(accusative).toBeGreaterThan(0);
    // "Куплю электрогитару", not "Куплю: Электрогитара".
    const fender = catalogFixture().byId.get('guitar-fender-player-stratocaster')!;
    expect(fender.text.ru.acc).toBe('электрогитару Fender Player Stratocaster');
  });
});

describe('a catalogue without repeats', () => {
  it('gives every listing of the default seed its own title, in every language, and uses every template first', async () => {
    const shown = await everyListed();
    const titles = shown.map((l) => l.title.toLowerCase());
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
    const all = Object.values(sb.world.store.db.listings);
    for (const lang of lexicon().codes) {
      const inLang = all.map((l) => normalize(listingTitle(l, lang)));
      expect(
        inLang.filter((t, i) => inLang.indexOf(t) !== i),
        lang,
      ).toEqual([]);
    }
    const templates = new Set(all.map((l) => parseTextRef(l.text_ref!).template));
    expect(templates.size).toBe(Math.min(all.length, catalogFixture().templates.length));
  });

  it('repeats a title only once the templates and their variants run out', () => {
    // 6,000 listings hold many times the 496 templates: every title the variants allow first.
    const titles = new Set(Object.values(large.world.store.db.listings).map((l) => l.title));
    expect(titles.size).toBeGreaterThan(5000);
  });
});
