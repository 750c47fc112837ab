import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { prefixAllowed, wordsIn } from '../i18n/text.js';
import { catalogIndex, catalogPhrases, droppedWords, LANGUAGES } from './catalog-text.js';
import { searchTerm } from './terms.js';

/**
 * Rank tiers of a word's match, best first: the word names the listing's kind
 * (fixtures/search-vocabulary.json), is a whole word or stem of its title, a prefix or near
 * spelling of a title word, a whole word or stem of its description, a prefix or near spelling
 * there. With `q` and no `sort`, listings are ranked by their weakest word's tier.
 */
export const TIER = { kind: 0, title: 1, titleNear: 2, description: 3, descriptionNear: 4 } as const;

/** Most words of a query that are searched. */
const MAX_WORDS = 32;

/** Where a word was found: document id → best tier. */
export type Hits = Map<string, number>;

/** Whether a document is a description piece (`d:`, `wd:`; catalog-text.ts) or a user listing's description field. */
const isDescription = (id: string, field: string) => field.startsWith('description') || /^w?d:/.test(id);

function tierOf(result: SearchResult, term: string, near: boolean): number {
  if (String(result.id).startsWith('k:')) return TIER.kind;
  let best: number = TIER.descriptionNear;
  for (const [found, fields] of Object.entries(result.match))
    for (const field of fields) {
      const description = isDescription(String(result.id), field);
      const inexact = near || found !== term;
      const tier = description
        ? inexact
          ? TIER.descriptionNear
          : TIER.description
        : inexact
          ? TIER.titleNear
          : TIER.title;
      best = Math.min(best, tier);
    }
  return best;
}

/** Adds each result's best tier for the query term (`near`: every match counts as a near one). */
function collect(hits: Hits, results: SearchResult[], term: string, near = false): void {
  for (const r of results) {
    const id = String(r.id);
    const tier = tierOf(r, term, near);
    const was = hits.get(id);
    if (was === undefined || tier < was) hits.set(id, tier);
  }
}

/** Exact terms only: the query's words are index terms already. */
const EXACT = { prefix: false, fuzzy: false, tokenize: (s: string) => [s], processTerm: (s: string) => s };

/**
 * The same word with two neighbouring letters swapped, each: `bicylce` → `bicycle`. The library's
 * typo tolerance counts edits (Levenshtein), where a swap is two; a shopper's most common slip
 * counts as one edit here.
 */
export function swaps(word: string): string[] {
  const letters = [...word];
  const out: string[] = [];
  for (let i = 0; i + 1 < letters.length; i += 1) {
    if (letters[i] === letters[i + 1]) continue;
    const s = [...letters];
    [s[i], s[i + 1]] = [s[i + 1], s[i]];
    out.push(s.join(''));
  }
  return out;
}

/** Fuzzy search of one edit for words of five letters or more (Korean and Han words have fewer, denser letters: none). */
export const typoEdits = (word: string): number =>
  [...word].length >= 5 &&
  /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Devanagari}\p{N}]+$/u.test(word)
    ? 1
    : 0;

/** The documents of one text index in one language that hold a query word as a whole word or stem; whether any does. */
function exactHits(index: MiniSearch, word: string, lang: string, hits: Hits, fields?: string[]): boolean {
  const term = searchTerm(word, lang);
  const exact = index.search(term, { ...EXACT, fields });
  collect(hits, exact, term);
  return exact.length > 0;
}

/**
 * The documents of one text index in one language that hold a query word as the start of a word
 * (text.ts `prefixAllowed`) or one edit away (a swap counted as one).
 */
function nearHits(index: MiniSearch, word: string, lang: string, hits: Hits, fields?: string[]): void {
  const term = searchTerm(word, lang);
  const prefix = prefixAllowed(word);
  const fuzzy = typoEdits(word);
  if (prefix || fuzzy > 0) collect(hits, index.search(term, { ...EXACT, fields, prefix, fuzzy }), term);
  for (const swapped of fuzzy > 0 ? swaps(word) : []) {
    const t = searchTerm(swapped, lang);
    collect(hits, index.search(t, { ...EXACT, fields }), t, true);
  }
}

/**
 * The documents of one text index in one language that hold a query word: as a whole word or
 * stem; and, where `near` is set and it is no whole word there, as a prefix or near spelling.
 */
export function wordHits(
  index: MiniSearch,
  word: string,
  lang: string,
  near: boolean,
  hits: Hits,
  fields?: string[],
): void {
  if (!exactHits(index, word, lang, hits, fields) && near) nearHits(index, word, lang, hits, fields);
}

/** A query read for the search: its words, stopwords dropped while others remain, each once (AND). */
export function queryWords(q: string, lang: string | undefined): string[] {
  const words = [...new Set(wordsIn(q, lang ?? 'en', MAX_WORDS))];
  const drop = new Set([...droppedWords('en'), ...(lang ? droppedWords(lang) : [])]);
  const kept = words.filter((w) => !drop.has(w));
  return kept.length > 0 ? kept : words;
}

/** The languages whose prefixes and near spellings a search in `lang` reads: that language and English. */
export const nearLanguages = (lang: string | undefined): string[] =>
  lang === undefined || lang === 'en' ? ['en'] : [lang, 'en'];

/** Most words whose catalogue hits are kept ({@link catalogHits}). */
const KEPT_WORDS = 2000;
const kept = new Map<string, Hits>();

/**
 * Where one query word is found in the catalogue's texts (catalog-text.ts): as a whole word or
 * stem in every language, and as a prefix or near spelling in `lang` and English when it is no
 * whole word there (`lam` finds lamps; `car` finds cars, not cards; `lamp` never the Tagalog
 * `lampin`). The catalogue does not change in a process, so a word's hits are kept (up to 2,000
 * words): the assistant tries a message's words together and one by one, and its longest message
 * cost 140 ms of CPU looking the same words up again (docs/architecture.md).
 */
export function catalogHits(word: string, lang: string | undefined): Hits {
  const key = `${lang ?? ''}\u0000${word}`;
  let hits = kept.get(key);
  if (hits) return hits;
  hits = new Map();
  const near = nearLanguages(lang);
  let known = false;
  for (const l of LANGUAGES) if (exactHits(catalogIndex(l), word, l, hits) && near.includes(l)) known = true;
  if (!known) for (const l of near) nearHits(catalogIndex(l), word, l, hits);
  if (kept.size >= KEPT_WORDS) kept.clear();
  kept.set(key, hits);
  return hits;
}

/** The query's words in groups: a run that names a kind in several words, with those kinds; else one word. */
export interface WordGroup {
  words: string[];
  kinds: string[];
}

/**
 * Groups the query's words: where a run of them spells a kind's name of several words in some
 * language (`xe đạp`, `máy tính xách tay`, `gaming console`: word for word, as the vocabulary
 * writes its forms), the run is one group naming those kinds (the longest run first); every other
 * word is a group of its own.
 */
export function wordGroups(words: string[]): WordGroup[] {
  const groups: WordGroup[] = [];
  for (let i = 0; i < words.length;) {
    let length = 1;
    let kinds: string[] = [];
    for (const lang of LANGUAGES)
      for (const p of catalogPhrases(lang)) {
        if (p.words.length < length || p.words[0] !== words[i]) continue;
        if (!p.words.every((w, k) => words[i + k] === w)) continue;
        if (p.words.length > length) [length, kinds] = [p.words.length, []];
        if (!kinds.includes(p.kind)) kinds.push(p.kind);
      }
    groups.push({ words: words.slice(i, i + length), kinds });
    i += length;
  }
  return groups;
}
