import { beforeAll, describe, expect, it } from 'vitest';
import { computeRates } from '../../src/api/wallet/rates.js';
import { loadFixture } from '../../src/fixtures.js';
import { SEED_ANCHOR } from '../../src/seed/seed.js';
import { catalogFixture, type ItemTemplate, type ValueText } from '../../src/i18n/catalog-fixture.js';
import { lexicon } from '../../src/i18n/lexicon.js';
import { parseTextRef } from '../../src/i18n/text-ref.js';
import type { ListingRecord } from '../../src/store/types.js';
import { makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  // The default seed, as `npm start` makes it.
  sb = await makeSandbox({ listings: 500, seed: 42, rateLimit: 0 });
  await freeze(sb);
});

const levels = loadFixture<{
  categories: Record<string, string>;
  levels: Record<string, Record<string, number>>;
}>('price-levels.json');
const levelOf = (t: ItemTemplate, country: string | null) =>
  levels.categories[t.category] ? (levels.levels[country ?? '']?.[levels.categories[t.category]] ?? 1) : 1;

const templateOf = (rec: ListingRecord): ItemTemplate =>
  catalogFixture().byId.get(parseTextRef(rec.text_ref!).template)!;
const others = () => lexicon().codes.filter((c) => c !== 'en');
const page = async (lang: string, n: number, limit = 12) =>
  (await sb.http.get(`/api/shop/listings?lang=${lang}&limit=${limit}&page=${n}`)).body
    .listings as ListingRecord[];

/** Words as the catalogue checker reads them (scripts/check-catalog.mjs): letter runs of two or more. */
const letterWords = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{M}]+/gu) ?? []).filter((w) => w.length >= 2);

/** Every form a value takes in a language (all genders), as written in attributes.json. */
function formsIn(value: ValueText | undefined, lang: string): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  const form = value[lang];
  return form === undefined ? [] : typeof form === 'string' ? [form] : Object.values(form);
}

describe('the item templates', () => {
  it('are written in all 17 languages, title and description, for every template', () => {
    const { templates } = catalogFixture();
    expect(templates.length).toBeGreaterThan(0);
    for (const t of templates)
      for (const lang of lexicon().codes) {
        expect(t.text[lang]?.title, `${t.id} ${lang}`).toBeTruthy();
        expect(t.text[lang]?.description, `${t.id} ${lang}`).toBeTruthy();
      }
  });
});

describe('seeded titles in every language', () => {
  it('keep no English word (beyond names and loanwords) and no unfilled slot, and start from the template', async () => {
    const { attributes } = catalogFixture();
    for (const lang of others()) {
      const sample = [...(await page(lang, 1, 50)), ...(await page(lang, 2, 50))];
      const records = sample.map((l) => sb.world.store.db.listings[l.id]).filter((r) => r.text_ref);
      expect(records.length, lang).toBeGreaterThan(50);
      sample.forEach((shown) => {
        const rec = sb.world.store.db.listings[shown.id];
        if (!rec.text_ref) return;
        const t = templateOf(rec);
        const ref = parseTextRef(rec.text_ref);
        const allowed = new Set([
          ...t.names.flatMap(letterWords),
          ...(t.text[lang].loanwords ?? []).flatMap(letterWords),
          ...ref.variants.flatMap(([a, v]) =>
            a === 'model'
              ? letterWords(v)
              : formsIn(attributes.attributes[a]?.values[v], lang).flatMap(letterWords),
          ),
          ...Object.values(attributes.attributes).flatMap((a) => letterWords(a.pattern?.[lang] ?? '')),
        ]);
        const english = new Set(letterWords(rec.title).filter((w) => !allowed.has(w)));
        const leaked = letterWords(shown.title).filter((w) => english.has(w) && !allowed.has(w));
        expect(leaked, `${lang} ${t.id}: "${shown.title}" (en "${rec.title}")`).toEqual([]);
        expect(shown.title, `${lang} ${t.id}`).not.toMatch(/[{}]|undefined/);
        // A wanted ad may take the title in the accusative (ru `acc`) or start it in lower case.
        const head = (rec.type === 'reverse_auction' && t.text[lang].acc) || t.text[lang].title;
        expect(shown.title.toLocaleLowerCase(lang), `${lang} ${t.id}`).toContain(
          head.toLocaleLowerCase(lang),
        );
        // A wanted ad has a buyer's words (seeded-realism.test.ts), every other listing the template's.
        if (rec.type !== 'reverse_auction')
          expect(shown.description, `${lang} ${t.id}`).toBe(t.text[lang].description);
      });
    }
  });

  it('are all different on the first five pages of the default search, in every language', async () => {
    for (const lang of lexicon().codes) {
      const titles: string[] = [];
      for (let n = 1; n <= 5; n += 1) titles.push(...(await page(lang, n)).map((l) => l.title.toLowerCase()));
      expect(titles.length, lang).toBe(60);
      expect(
        titles.filter((t, i) => titles.indexOf(t) !== i),
        lang,
      ).toEqual([]);
    }
    for (const lang of ['en', 'de']) {
      const titles: string[] = [];
      for (let n = 1; n <= 5; n += 1)
        titles.push(...(await page(lang, n, 50)).map((l) => l.title.toLowerCase()));
      expect(
        titles.filter((t, i) => titles.indexOf(t) !== i),
        `${lang}, 50 a page`,
      ).toEqual([]);
    }
  });
});

describe('seeded prices, types and stock', () => {
  const seeded = () => Object.values(sb.world.store.db.listings).filter((l) => l.text_ref);

  it("lie in the template's USD range, converted at the seed's rates", () => {
    // Priced once at the seed's build instant: the pinned start, else the anchor (seed.ts).
    const rates = computeRates(42, Date.parse(sb.world.seedOptions.clockStart || SEED_ANCHOR)).rates;
    for (const rec of seeded()) {
      const t = templateOf(rec);
      if (rec.price_cents === 0) {
        expect(rec.type, `${t.id}: free`).toBe('classifieds');
        continue;
      }
      // Pay, rates and rents at the price level of the listing's country (fixtures/price-levels.json).
      const usd = rec.price_cents / 100 / (rates.get(rec.currency) ?? 1) / levelOf(t, rec.location_country);
      const [lo, hi] = t.price_usd;
      expect(usd, `${t.id} ${rec.price_cents} ${rec.currency}`).toBeGreaterThanOrEqual(lo * 0.9 - 0.6);
      expect(usd, `${t.id} ${rec.price_cents} ${rec.currency}`).toBeLessThanOrEqual(hi * 1.1 + 0.6);
    }
  });

  it('are rounded as each currency is priced: whole yen, x.99 in a shop, whole amounts, BTC to two digits', () => {
    const currencies = new Set<string>();
    for (const rec of seeded()) {
      const { price_cents: cents, currency, type } = rec;
      if (cents === 0) continue;
      currencies.add(currency);
      const where = `${rec.title}: ${cents} ${currency} ${type}`;
      if (currency === 'JPY') expect(cents % 100, where).toBe(0);
      else if (currency === 'BTC') {
        expect(cents, where).toBeGreaterThanOrEqual(10);
        expect(String(cents), where).toMatch(/^\d\d?0*$/);
      } else if (type === 'mall' && cents < 1000) expect(cents % 50, where).toBe(49);
      else if (type === 'mall' && cents < 100_000) expect(cents % 100, where).toBe(99);
      else if (cents >= 1000) expect(String(cents / 100), where).toMatch(/^\d\d?0*$/);
      else expect(cents % 50, where).toBe(0);
    }
    expect(currencies.size).toBeGreaterThan(3);
  });

  it("take only the template's types and subcategory, and stock only in a shop", () => {
    for (const rec of seeded()) {
      const t = templateOf(rec);
      expect(t.types, `${t.id} as ${rec.type}`).toContain(rec.type);
      expect(rec.category).toBe(t.subcategory);
      if (rec.type !== 'mall') expect(rec.quantity_available, t.id).toBe(1);
      else {
        // A used item is one piece, refurbished stock a few units (seeded-condition.test.ts).
        const condition = parseTextRef(rec.text_ref!).variants.find(([a]) => a === 'condition')?.[1];
        const cap = condition === 'refurbished' ? 5 : condition && condition !== 'new' ? 1 : Infinity;
        expect(rec.quantity_available, t.id).toBeGreaterThanOrEqual(Math.min(t.quantity[0], cap));
        expect(rec.quantity_available, t.id).toBeLessThanOrEqual(Math.min(t.quantity[1], cap));
      }
    }
  });
});
