import { catalogFixture } from './catalog-fixture.js';
import {
  templateDescription,
  variantText,
  wantedHead,
  wantedTextCount,
  wantedWording,
} from './template-text.js';
import { COMPOUNDING, compoundEndAllowed, wordsIn } from './text.js';

/**
 * The pieces seeded listings' texts are made of, numbered once per process: each item template's
 * title and its description, each variant a template may take (its words after the title), the
 * "wanted" wording of reverse auctions and the buyer's descriptions they show instead of the
 * template's. A seeded listing is a template's title, its description or a buyer's, one or two
 * variants and maybe the wanted wording, so a search index keeps, per part, the listings that
 * have it: a few postings per listing instead of one per word, and every language found through
 * the same parts.
 */
export interface PartTable {
  /**
   * Parts in all: template titles first (part = template index), then the wanted wording, the
   * buyer's descriptions, the template descriptions (`descriptions` + template index), variants.
   */
  count: number;
  wanted: number;
  /** The first buyer's description (`wantedDescriptions` + template-text.ts `wantedTextIndex`). */
  wantedDescriptions: number;
  /** The first template description. */
  descriptions: number;
  /**
   * The first template title as a wanted ad writes it (`wantedTitles` + template index:
   * template-text.ts `wantedHead`, "Куплю электрогитару"), then the variants as it writes them.
   */
  wantedTitles: number;
  /** `${template index}|${attribute}=${value}` → part. */
  variants: Map<string, number>;
  /** The same for the variants of a template that may be wanted, as a wanted ad writes them. */
  wantedVariants: Map<string, number>;
}

function numberParts(): PartTable {
  const { templates } = catalogFixture();
  const variants = new Map<string, number>();
  const wanted = templates.length;
  const wantedDescriptions = wanted + 1;
  const descriptions = wantedDescriptions + wantedTextCount();
  const wantedTitles = descriptions + templates.length;
  const wantedVariants = new Map<string, number>();
  let next = wantedTitles + templates.length;
  templates.forEach((t, i) => {
    for (const [attribute, values] of Object.entries(t.attributes ?? {}))
      for (const value of values) {
        variants.set(`${i}|${attribute}=${value}`, next++);
        if (t.types.includes('reverse_auction')) wantedVariants.set(`${i}|${attribute}=${value}`, next++);
      }
  });
  return { count: next, wanted, wantedDescriptions, descriptions, wantedTitles, variants, wantedVariants };
}

let parts: PartTable | undefined;

/** The part numbers, made once per process on first use. */
export function partTable(): PartTable {
  parts ??= numberParts();
  return parts;
}

/** Where a word stands: in the title or in the description (title matches rank first). */
export const TITLE = 0;
export const DESCRIPTION = 1;

/**
 * One language's words of every part: word → codes (`part * 2 + field`), the words sorted for
 * prefix ranges and, in a compounding language, the words reversed and sorted for the ends of
 * compounds.
 */
export interface TermDictionary {
  lang: string;
  codes: Map<string, number[]>;
  sorted: string[];
  /** Each word written backwards, sorted: `jacke` finds `lederjacke` as `ekcaj…`. */
  reversed?: string[];
}

const backwards = (word: string) => [...word].reverse().join('');

/** A dictionary of `codes` for `lang`, with the sorted lists a search walks. */
export function dictionaryOf(lang: string, codes: Map<string, number[]>): TermDictionary {
  const sorted = [...codes.keys()].sort();
  const reversed = COMPOUNDING.has(lang) ? sorted.map(backwards).sort() : undefined;
  return { lang, codes, sorted, reversed };
}

function add(codes: Map<string, number[]>, text: string, lang: string, code: number): void {
  for (const word of wordsIn(text, lang)) {
    const list = codes.get(word);
    if (!list) codes.set(word, [code]);
    else if (list[list.length - 1] !== code) list.push(code);
  }
}

/** One language's words of every part: the templates' texts, the wanted wordings, the variants. */
function buildDictionary(lang: string): TermDictionary {
  const { templates, attributes } = catalogFixture();
  const table = partTable();
  const codes = new Map<string, number[]>();
  for (let i = 0; i < templates.length; i += 1) {
    const t = templates[i];
    add(codes, (t.text[lang] ?? t.text.en).title, lang, i * 2 + TITLE);
    add(codes, templateDescription(t, lang), lang, (table.descriptions + i) * 2 + DESCRIPTION);
    if (t.types.includes('reverse_auction'))
      add(codes, wantedHead(t, lang), lang, (table.wantedTitles + i) * 2 + TITLE);
  }
  add(codes, wantedWording(lang), lang, table.wanted * 2 + TITLE);
  const buyers = attributes.wanted_descriptions;
  (buyers[lang] ?? buyers.en).forEach((text, k) =>
    add(codes, text, lang, (table.wantedDescriptions + k) * 2 + DESCRIPTION),
  );
  for (const [variants, wanted] of [
    [table.variants, false],
    [table.wantedVariants, true],
  ] as const)
    for (const [key, part] of variants) {
      const bar = key.indexOf('|');
      const eq = key.indexOf('=', bar);
      const template = templates[Number(key.slice(0, bar))];
      const text = variantText(template, key.slice(bar + 1, eq), key.slice(eq + 1), lang, wanted);
      add(codes, text, lang, part * 2 + TITLE);
    }
  return dictionaryOf(lang, codes);
}

const dictionaries = new Map<string, TermDictionary>();

/** Whether `lang`'s word list is built (a use now would cost nothing). */
export const hasTermDictionary = (lang: string): boolean => dictionaries.has(lang);

/** The words of every part in `lang`, built once per process by its first use. */
export function termDictionary(lang: string): TermDictionary {
  let dict = dictionaries.get(lang);
  if (!dict) {
    dict = buildDictionary(lang);
    dictionaries.set(lang, dict);
  }
  return dict;
}

/** The first index of `list` (sorted) whose entry is greater than `word`. */
function after(list: string[], word: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Calls `visit(code, exact)` for every code of a word in the dictionary: the word itself (exact),
 * then, when `prefix` is set, every longer word that starts with it, and in a compounding
 * language every longer word that ends with it (text.ts `compoundEndAllowed`).
 */
export function forEachCode(
  dict: TermDictionary,
  word: string,
  prefix: boolean,
  visit: (code: number, exact: boolean) => void,
): void {
  for (const code of dict.codes.get(word) ?? []) visit(code, true);
  if (!prefix) return;
  const { sorted, reversed } = dict;
  for (let i = after(sorted, word); i < sorted.length && sorted[i].startsWith(word); i += 1)
    for (const code of dict.codes.get(sorted[i]) ?? []) visit(code, false);
  if (!reversed || !compoundEndAllowed(word, dict.lang)) return;
  const end = backwards(word);
  for (let i = after(reversed, end); i < reversed.length && reversed[i].startsWith(end); i += 1)
    for (const code of dict.codes.get(backwards(reversed[i])) ?? []) visit(code, false);
}
