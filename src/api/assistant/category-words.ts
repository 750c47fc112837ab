import { wordsIn } from '../../i18n/text.js';

/** The category part of `fixtures/assistant.json`: per language, the words that name each category. */
export interface CategoryWords {
  words: Record<string, Record<string, string[]>>;
  /** Per category, the English word the titles of its one kind of item hold (`bicycles`: `bike`). */
  probes: Record<string, string>;
}

/** A category a message names. */
export interface NamedCategory {
  slug: string;
  /** The words of the message that named it. */
  words: string[];
  /** The English word whose listings come first, if the category has one. */
  probe?: string;
}

interface Phrase {
  words: string[];
  slug: string;
}

const tables = new Map<string, Map<string, Phrase[]>>();

/**
 * The phrases of `lang` and of English by their first word, each list longest first (`car parts`
 * before `car`), made once per language. A phrase is split into words as a message in that
 * language is, so the two always agree (`tv-spel` is `tv` `spel`, `自転車` one word).
 */
function phrasesOf(lang: string, fixture: CategoryWords): Map<string, Phrase[]> {
  let table = tables.get(lang);
  if (table) return table;
  table = new Map();
  for (const code of lang === 'en' ? ['en'] : [lang, 'en'])
    for (const [slug, list] of Object.entries(fixture.words[code] ?? {}))
      for (const text of list) {
        const words = wordsIn(text, code);
        if (words.length === 0) continue;
        const found = table.get(words[0]) ?? [];
        found.push({ words, slug });
        table.set(words[0], found);
      }
  for (const list of table.values()) list.sort((a, b) => b.words.length - a.words.length);
  tables.set(lang, table);
  return table;
}

/**
 * The first category a message's words name in `lang` or English (`fahrrad`, `bikes`, `juegos de
 * mesa`), and the words left once its words are taken out. One pass over the words, each looked
 * up by itself: linear in the message.
 * @example categoryIn(['ich', 'suche', 'ein', 'fahrrad'], 'de', fixture) // bicycles, rest ['ich', 'suche', 'ein']
 */
export function categoryIn(
  words: string[],
  lang: string,
  fixture: CategoryWords,
): { category?: NamedCategory; rest: string[] } {
  const table = phrasesOf(lang, fixture);
  for (let i = 0; i < words.length; i += 1) {
    for (const phrase of table.get(words[i]) ?? []) {
      const n = phrase.words.length;
      if (phrase.words.every((w, k) => words[i + k] === w)) {
        const category = {
          slug: phrase.slug,
          words: words.slice(i, i + n),
          probe: fixture.probes[phrase.slug],
        };
        return { category, rest: [...words.slice(0, i), ...words.slice(i + n)] };
      }
    }
  }
  return { rest: words };
}

const byWord = new Map<string, Map<string, Set<string>>>();

/**
 * The languages among `codes` in which `word` alone names a category (`fahrrader`: de): a word the
 * detection of a message's language may count. Read from the fixture once per set of languages.
 */
export function categoryLanguages(word: string, fixture: CategoryWords, codes: readonly string[]): string[] {
  const key = codes.join(' ');
  let table = byWord.get(key);
  if (!table) {
    table = new Map();
    for (const code of codes)
      for (const list of Object.values(fixture.words[code] ?? {}))
        for (const text of list) {
          const words = wordsIn(text, code);
          if (words.length === 1) table.set(words[0], (table.get(words[0]) ?? new Set()).add(code));
        }
    byWord.set(key, table);
  }
  return [...(table.get(word) ?? [])];
}
