import { describe, expect, it } from 'vitest';
import { expectError, useSandbox } from './support/client.js';
import {
  CATEGORY_FIELDS,
  fieldProblems,
  LANGUAGES,
  LISTING_FIELDS,
  STORE_FIELDS,
} from './support/document.js';

// Interface document, 4.7 categories, 4.8 subcategories, 4.11 stores, 4.13 locale files.
const ctx = useSandbox();

type Category = { slug: string; name: string; count: number; subcategory_count: number };

describe('4.7 GET /api/shop/categories (public)', () => {
  it('"Query: lang (optional). Response: categories (array of Category objects)." in every language', async () => {
    const english = await ctx.api.get<{ categories: Category[] }>('/api/shop/categories');
    expect(english.body.categories.length).toBeGreaterThan(0);
    for (const lang of LANGUAGES) {
      const res = await ctx.api.get<{ categories: Category[] }>('/api/shop/categories', { query: { lang } });
      expect([lang, res.status]).toEqual([lang, 200]);
      expect(res.body.categories.map((c) => c.slug)).toEqual(english.body.categories.map((c) => c.slug));
      for (const c of res.body.categories)
        expect(fieldProblems(c, CATEGORY_FIELDS, `${lang} ${c.slug}`)).toEqual([]);
    }
  });
});

describe('4.8 GET /api/shop/categories/subcategories/{parent_slug}', () => {
  it('"Returns the subcategories of the parent category. Response body: not shown." (sandbox choice: {parent, subcategories})', async () => {
    const res = await ctx.api.get<{ parent: Category; subcategories: Category[] }>(
      '/api/shop/categories/subcategories/fashion',
    );
    expect(res.status).toBe(200);
    expect(res.body.parent.slug).toBe('fashion');
    expect(res.body.subcategories.length).toBe(res.body.parent.subcategory_count);
    for (const c of res.body.subcategories) expect(fieldProblems(c, CATEGORY_FIELDS, c.slug)).toEqual([]);
  });

  it('"Query: lang (optional)." translates the subcategory names', async () => {
    const en = await ctx.api.get<{ subcategories: Category[] }>('/api/shop/categories/subcategories/fashion');
    const es = await ctx.api.get<{ subcategories: Category[] }>(
      '/api/shop/categories/subcategories/fashion',
      {
        query: { lang: 'es' },
      },
    );
    expect(es.body.subcategories.map((c) => c.slug)).toEqual(en.body.subcategories.map((c) => c.slug));
    es.body.subcategories.forEach((c, i) => expect(c.name).not.toBe(en.body.subcategories[i].name));
  });

  it('"Returns the subcategories of the parent category.": an unknown parent is a 404 with "one field: error (string)" (7)', async () => {
    expectError(await ctx.api.get('/api/shop/categories/subcategories/no-such-category'), 404);
  });
});

describe('4.11 GET /api/shop/stores/{slug} (public)', () => {
  it('"Response: store (store_name, slug, description) and listings (array of Listing objects)."', async () => {
    const res = await ctx.api.get<{ store: unknown; listings: unknown[] }>('/api/shop/stores/sandbox-seller');
    expect(res.status).toBe(200);
    expect(fieldProblems(res.body.store, STORE_FIELDS, 'store')).toEqual([]);
    expect(res.body.listings.length).toBeGreaterThan(0);
    res.body.listings.forEach((l, i) =>
      expect(fieldProblems(l, LISTING_FIELDS, `listings[${i}]`)).toEqual([]),
    );
  });

  it('"Response: store (store_name, slug, description) and listings": an unknown store is a 404 with "one field: error (string)" (7)', async () => {
    expectError(await ctx.api.get('/api/shop/stores/no-such-store'), 404);
  });
});

describe('4.13 GET /locales/shop-{lang}.json', () => {
  it('"Language codes: ar, de, en, es, fa, fr, hi, ja, ko, pt, ru, sv, tl, tr, ur, vi, zh.": each is served as JSON strings', async () => {
    for (const lang of LANGUAGES) {
      const res = await ctx.api.get<Record<string, unknown>>(`/locales/shop-${lang}.json`);
      expect([lang, res.status]).toEqual([lang, 200]);
      expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
      const values = Object.values(res.body);
      expect(values.length).toBeGreaterThan(0);
      expect(
        values.every((v) => typeof v === 'string' && v.length > 0),
        lang,
      ).toBe(true);
    }
  });

  it('"Returns UI translation strings (buttons, navigation, filters) for a language." (keys by the sandbox\'s prefixes)', async () => {
    const res = await ctx.api.get<Record<string, string>>('/locales/shop-en.json');
    const keys = Object.keys(res.body);
    for (const prefix of ['button.', 'nav.', 'filter.'])
      expect(
        keys.some((k) => k.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });

  it('"The text says 16 languages are supported while listing 17 codes." (sandbox choice: en is the source, 16 translations)', async () => {
    const en = (await ctx.api.get<Record<string, string>>('/locales/shop-en.json')).body;
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const other = (await ctx.api.get<Record<string, string>>(`/locales/shop-${lang}.json`)).body;
      expect(Object.keys(other).sort(), lang).toEqual(Object.keys(en).sort());
      const translated = Object.keys(en).filter((k) => other[k] !== en[k]);
      expect(translated.length, lang).toBeGreaterThan(Object.keys(en).length / 2);
    }
  });
});
