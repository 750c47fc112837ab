import { forEachCode, partTable, termDictionary, type TermDictionary } from '../../i18n/term-dictionary.js';
import { prefixAllowed, wordsIn } from '../../i18n/text.js';
import type { Scratch } from './positions.js';
import type { SearchIndex } from './search-index.js';

/**
 * Rank tiers of a text match, best first: a query word as a whole word of the title, as the start
 * of a title word, as a whole word of the description, as the start of a description word. A
 * listing's tier is its weakest word's; with `q`, matches are ranked by tier, then by the sort.
 */
export const TIERS = 4;

/** Most words of a query that are searched. */
const MAX_WORDS = 32;

/** The query's words as the search reads them in `lang` (Chinese and Japanese segmented like the texts). */
export function queryWords(q: string, lang: string): string[] {
  return wordsIn(q, lang, MAX_WORDS);
}

/** The languages a search in `lang` reads: that language and English. */
export const searchLanguages = (lang: string): string[] => (lang === 'en' ? ['en'] : [lang, 'en']);

/** Tier (plus one) of a code found for a word: field (title 0, description 1) × 2, +1 for a prefix. */
const tierOf = (code: number, exact: boolean) => (code & 1) * 2 + (exact ? 0 : 1) + 1;

/**
 * Marks in `s.marks` (tier + 1, the best one) every position one word matches, and writes them to
 * `s.spare`; returns how many. Seeded listings are reached through their text parts, each part's
 * best tier gathered first; users' listings through their own words.
 */
function markWord(word: string, lang: string, index: SearchIndex, s: Scratch): number {
  const prefix = prefixAllowed(word);
  const { marks, spare, partTiers } = s;
  const touched: number[] = [];
  let count = 0;
  const mark = (pos: number, tier: number) => {
    const was = marks[pos];
    if (was === 0) spare[count++] = pos;
    if (was === 0 || tier < was) marks[pos] = tier;
  };
  for (const l of searchLanguages(lang)) {
    forEachCode(termDictionary(l), word, prefix, (code, exact) => {
      const part = code >> 1;
      const tier = tierOf(code, exact);
      if (partTiers[part] === 0) touched.push(part);
      if (partTiers[part] === 0 || tier < partTiers[part]) partTiers[part] = tier;
    });
    const own: TermDictionary = index.parts.userDictionary(l, index.recs);
    forEachCode(own, word, prefix, (code, exact) => mark(code >> 1, tierOf(code, exact)));
  }
  for (const part of touched) {
    const tier = partTiers[part];
    partTiers[part] = 0;
    for (const pos of index.parts.positions[part]) mark(pos, tier);
  }
  return count;
}

/** Zeroes the marks of the `count` positions in `s.spare`. */
function clearMarks(s: Scratch, count: number): void {
  for (let k = 0; k < count; k += 1) s.marks[s.spare[k]] = 0;
}

/** The `count` marked positions (those in `s.spare`) in `s.lists[0]`, ascending when `sorted`. */
function markedPositions(s: Scratch, count: number, sorted: boolean): Int32Array {
  const out = s.lists[0].subarray(0, count);
  out.set(s.spare.subarray(0, count));
  return sorted ? out.sort() : out;
}

/**
 * Positions matching every word of `q` (AND) in `lang` or English, in `s.lists[0]` (in ascending
 * order when `sorted`); each one's tier in `s.tiers`. A word matches a whole word, or the start of a word when it is long
 * enough (text.ts `prefixAllowed`), case- and accent-insensitive. Undefined when `q` has no word.
 */
export function textMatches(
  q: string | undefined,
  lang: string,
  index: SearchIndex,
  s: Scratch,
  sorted: boolean,
): Int32Array | undefined {
  if (q === undefined) return undefined;
  const ws = queryWords(q, lang);
  if (ws.length === 0) return undefined;
  const parts = partTable().count;
  if (s.partTiers.length < parts) s.partTiers = new Uint8Array(parts);
  const { marks, tiers } = s;
  let found: Int32Array = s.lists[0].subarray(0, 0);
  ws.forEach((word, w) => {
    if (w > 0 && found.length === 0) return;
    const count = markWord(word, lang, index, s);
    if (w === 0) {
      found = markedPositions(s, count, sorted);
      for (let k = 0; k < count; k += 1) tiers[found[k]] = marks[found[k]] - 1;
    } else {
      let kept = 0;
      for (let k = 0; k < found.length; k += 1) {
        const pos = found[k];
        const mark = marks[pos];
        if (mark === 0) continue;
        found[kept++] = pos;
        if (mark - 1 > tiers[pos]) tiers[pos] = mark - 1;
      }
      found = found.subarray(0, kept);
    }
    clearMarks(s, count);
  });
  return found;
}
