import { catalogFixture } from './catalog-fixture.js';
import { templateDescription, variantText, wantedWording } from './template-text.js';
import { wordsIn } from './text.js';

/**
 * The pieces seeded listings' texts are made of, numbered once per process: each item template
 * (its title and description), each variant a template may take (its words after the title), and
 * the "wanted" wording of reverse auctions. A seeded listing is a template, one or two variants and
 * maybe the wanted wording, so a search index keeps, per part, the listings that have it: a few
 * postings per listing instead of one per word, and every language found through the same parts.
 */
export interface PartTable {
  /** Parts in all: templates first (part = template index), then the wanted part, then variants. */
  count: number;
  wanted: number;
  /** `${template index}|${attribute}=${value}` → part. */
  variants: Map<string, number>;
}

let table: PartTable | undefined;

export function partTable(): PartTable {
  if (table) return table;
  const { templates } = catalogFixture();
  const variants = new Map<string, number>();
  let next = templates.length + 1;
  templates.forEach((t, i) => {
    for (const [attribute, values] of Object.entries(t.attributes ?? {}))
      for (const value of values) variants.set(`${i}|${attribute}=${value}`, next++);
  });
  table = { count: next, wanted: templates.length, variants };
  return table;
}

/** Where a word stands: in the title or in the description (title matches rank first). */
export const TITLE = 0;
export const DESCRIPTION = 1;

/**
 * One language's words of every part: word → codes (`part * 2 + field`), and the words sorted
 * for prefix ranges.
 */
export interface TermDictionary {
  codes: Map<string, number[]>;
  sorted: string[];
}

const dictionaries = new Map<string, TermDictionary>();

function add(codes: Map<string, number[]>, text: string, lang: string, code: number): void {
  for (const word of wordsIn(text, lang)) {
    const list = codes.get(word);
    if (!list) codes.set(word, [code]);
    else if (list[list.length - 1] !== code) list.push(code);
  }
}

/** The words of every part in `lang`, built on the first search in that language. */
export function termDictionary(lang: string): TermDictionary {
  let found = dictionaries.get(lang);
  if (found) return found;
  const { templates } = catalogFixture();
  const parts = partTable();
  const codes = new Map<string, number[]>();
  templates.forEach((t, i) => {
    add(codes, (t.text[lang] ?? t.text.en).title, lang, i * 2 + TITLE);
    add(codes, templateDescription(t, lang), lang, i * 2 + DESCRIPTION);
  });
  add(codes, wantedWording(lang), lang, parts.wanted * 2 + TITLE);
  for (const [key, part] of parts.variants) {
    const bar = key.indexOf('|');
    const eq = key.indexOf('=', bar);
    const template = templates[Number(key.slice(0, bar))];
    add(
      codes,
      variantText(template, key.slice(bar + 1, eq), key.slice(eq + 1), lang),
      lang,
      part * 2 + TITLE,
    );
  }
  found = { codes, sorted: [...codes.keys()].sort() };
  dictionaries.set(lang, found);
  return found;
}

/**
 * Calls `visit(code, exact)` for every code of a word in the dictionary: the word itself (exact),
 * then, when `prefix` is set, every longer word that starts with it.
 */
export function forEachCode(
  dict: { codes: Map<string, number[]>; sorted: string[] },
  word: string,
  prefix: boolean,
  visit: (code: number, exact: boolean) => void,
): void {
  for (const code of dict.codes.get(word) ?? []) visit(code, true);
  if (!prefix) return;
  const { sorted } = dict;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= word) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && sorted[i].startsWith(word); i += 1)
    for (const code of dict.codes.get(sorted[i]) ?? []) visit(code, false);
}
