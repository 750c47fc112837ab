import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../fixtures.js';
import { lexicon } from '../../i18n/lexicon.js';
import { wordsIn } from '../../i18n/text.js';
import { categoryFixture } from '../../seed/catalog-data.js';
import { categoryIn, type CategoryWords } from './category-words.js';

const fixture = loadFixture<{ categories: CategoryWords }>('assistant.json').categories;
const slugs = categoryFixture().flatMap((c) => [c.slug, ...c.subcategories.map((s) => s.slug)]);

describe('category words (fixtures/assistant.json)', () => {
  it('name every subcategory in every language, and no word names two categories', () => {
    for (const lang of lexicon().codes) {
      const table = fixture.words[lang] ?? {};
      const leaf = categoryFixture().flatMap((c) => c.subcategories.map((s) => s.slug));
      expect(
        leaf.filter((slug) => !table[slug]?.length),
        lang,
      ).toEqual([]);
      expect(
        Object.keys(table).filter((slug) => !slugs.includes(slug)),
        lang,
      ).toEqual([]);
      const seen = new Map<string, string>();
      for (const [slug, list] of Object.entries(table))
        for (const text of list) {
          const key = wordsIn(text, lang).join(' ');
          expect(key, `${lang} ${text}`).not.toBe('');
          expect(seen.get(key) ?? slug, `${lang} "${text}"`).toBe(slug);
          seen.set(key, slug);
        }
    }
    for (const slug of Object.keys(fixture.probes)) expect(slugs).toContain(slug);
  });

  it('finds the first category a message names, the longest phrase first', () => {
    const words = (text: string, lang: string) => wordsIn(text, lang);
    expect(categoryIn(words('ich suche ein fahrrad', 'de'), 'de', fixture)).toEqual({
      category: { slug: 'bicycles', words: ['fahrrad'], probe: 'bike' },
      rest: ['ich', 'suche', 'ein'],
    });
    expect(categoryIn(words('busco juegos de mesa baratos', 'es'), 'es', fixture).category?.slug).toBe(
      'board-games',
    );
    expect(categoryIn(words('looking for car parts', 'en'), 'en', fixture).category?.slug).toBe('auto-parts');
    expect(categoryIn(words('自転車を探しています', 'ja'), 'ja', fixture).category?.slug).toBe('bicycles');
    // English words count in every language; other languages' do not.
    expect(categoryIn(words('Je cherche un bike', 'fr'), 'fr', fixture).category?.slug).toBe('bicycles');
    expect(categoryIn(words('I need a fahrrad', 'en'), 'en', fixture).category).toBeUndefined();
    expect(categoryIn(words('a lamp under 50 dollars', 'en'), 'en', fixture)).toEqual({
      rest: ['a', 'lamp', 'under', '50', 'dollars'],
    });
  });
});
