import type { Query } from '../../contract/types.js';
import type { ListingRecord, ListingType } from '../../store/types.js';
import { LANGUAGES, vocabulary } from '../../search/catalog-text.js';
import type { ListingTable } from '../../search/listing-table.js';
import {
  catalogHits,
  nearLanguages,
  queryWords,
  TIER,
  wordGroups,
  wordHits,
  type Hits,
} from '../../search/text-match.js';
import type { Term } from './listing-state.js';

/** The orders a search can be sorted in (searchListings' `sort`). */
export type Sort = NonNullable<Query<'searchListings'>['sort']>;
export const SORTS: Sort[] = ['newest', 'price_low', 'price_high', 'ending_soon'];

/** A location search: centre and radius in km. */
export interface GeoQuery {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** A validated search: every filter optional; `now` is the sandbox clock in ms. */
export interface SearchQuery {
  q?: string;
  /** The language `q` is typed in; without it, `q` is read in every language alike. */
  lang?: string;
  type?: ListingType;
  /** Allowed category slugs (a parent and its subcategories), or undefined for all. */
  categories?: Set<string>;
  /** Inclusive bounds in USD cents, on each price converted at the table's rates. */
  minCents?: number;
  maxCents?: number;
  currency?: string;
  geo?: GeoQuery;
  storeSlug?: string;
  /** Featured listings first (top-of-search); default true. */
  featuredFirst?: boolean;
  sort: Sort;
  /** With `q`, matches ranked by how well they match before `sort` (no `sort` was asked for). */
  ranked?: boolean;
  page: number;
  limit: number;
  now: number;
}

export interface SearchResult {
  items: ListingRecord[];
  /** Each item's term at the searched time (listing-state.ts `listingTerm`). */
  terms: Term[];
  total: number;
}

export { distanceKm } from '../../search/geo.js';

/**
 * Which listings a word (or a query) finds, by position: its tier plus one, 0 where it finds
 * nothing. One byte a listing: a search at 100k listings fills a few of these, where a map of the
 * matches made a megabyte of garbage a word (docs/catalog.md).
 */
export type Found = Uint8Array;

/** Marks `i` with `tier` where it has no better one. */
function take(found: Found, i: number, tier: number): void {
  if (found[i] === 0 || tier + 1 < found[i]) found[i] = tier + 1;
}

/**
 * The listings one query word finds, each with its tier (search/text-match.ts): through the
 * catalogue documents of their texts and kinds, and users' listings through their own texts and
 * the words of the kinds the word names.
 */
function wordListings(table: ListingTable, word: string, lang: string | undefined): Found {
  const found: Found = new Uint8Array(table.recs.length);
  const hits = catalogHits(word, lang);
  for (const [doc, tier] of hits) for (const i of table.docs.get(doc) ?? []) take(found, i, tier);
  if (table.users.length > 0) {
    const users = table.usersIndex();
    const own: Hits = new Map();
    // As in the catalogue: whole words and stems in every language, near ones in `lang` and English.
    const near = nearLanguages(lang);
    for (const l of LANGUAGES)
      wordHits(users, word, l, near.includes(l), own, [`title_${l}`, `description_${l}`]);
    for (const [doc, tier] of own) take(found, Number(doc), tier);
    // A kind the word names finds the users' listings whose text names it too (a title that does ranks
    // as the kind's own listings).
    const named: Hits = new Map();
    for (const kind of vocabulary().kinds)
      if (hits.has(`k:${kind.id}`))
        for (const [l, words] of Object.entries(kind.words))
          for (const w of words) wordHits(users, w, l, false, named, [`title_${l}`, `description_${l}`]);
    for (const [doc, tier] of named) take(found, Number(doc), tier === TIER.title ? TIER.kind : tier);
  }
  return found;
}

/** Keeps in `found` the listings `next` has too (AND), each with the weaker of its two tiers. */
function keepBoth(found: Found, next: Found): void {
  for (let i = 0; i < found.length; i += 1)
    if (found[i] !== 0) found[i] = next[i] === 0 ? 0 : Math.max(found[i], next[i]);
}

/** What every word finds (AND), each listing with its weakest word's tier. */
function allOf(table: ListingTable, words: string[], lang: string | undefined): Found {
  const [first, ...rest] = words;
  const found = wordListings(table, first, lang);
  for (const word of rest) keepBoth(found, wordListings(table, word, lang));
  return found;
}

/**
 * Every listing `q` finds: each group of its words (text-match.ts `wordGroups`) must match (AND);
 * a group naming kinds finds their listings (the kind's tier) and what its words find together;
 * each listing ranks by its weakest group. Undefined when `q` has no words.
 */
export function textMatches(
  table: ListingTable,
  q: string | undefined,
  lang: string | undefined,
): Found | undefined {
  if (q === undefined) return undefined;
  const words = queryWords(q, lang);
  if (words.length === 0) return undefined;
  const groups = wordGroups(words).map(({ words: ws, kinds }) => {
    const found = allOf(table, ws, lang);
    for (const kind of kinds) for (const i of table.docs.get(`k:${kind}`) ?? []) found[i] = TIER.kind + 1;
    return found;
  });
  const [first, ...rest] = groups;
  for (const next of rest) keepBoth(first, next);
  return first;
}

type Order = (a: number, b: number) => number;

/**
 * The order of matches (positions): featured first (when asked), the text tier (`tiers`, when
 * ranked), the sort, then newest and id.
 */
function comparator(table: ListingTable, q: SearchQuery, tiers: Found | undefined): Order {
  const { recs, usd, featured } = table;
  const split = q.featuredFirst !== false;
  const term = (i: number) => table.termAt(i, q.now);
  const newest: Order = (a, b) => term(b).created - term(a).created || (recs[a].id < recs[b].id ? 1 : -1);
  const bySort: Order = {
    newest,
    price_low: (a: number, b: number) => usd[a] - usd[b] || newest(a, b),
    price_high: (a: number, b: number) => usd[b] - usd[a] || newest(a, b),
    ending_soon: (a: number, b: number) => term(a).expires - term(b).expires || newest(a, b),
  }[q.sort];
  const tier = (i: number) => (q.ranked && tiers ? tiers[i] : 0);
  return (a, b) =>
    (split ? Number(featured[b]) - Number(featured[a]) : 0) || tier(a) - tier(b) || bySort(a, b);
}

/** Whether listing `i` is shown at the searched time and passes the query's filters (the location aside). */
function passes(table: ListingTable, q: SearchQuery, i: number): boolean {
  if (!table.listed(i, q.now)) return false;
  const rec = table.recs[i];
  if ((q.type && rec.type !== q.type) || (q.currency && rec.currency !== q.currency)) return false;
  if ((q.storeSlug && rec.store_slug !== q.storeSlug) || (q.categories && !q.categories.has(rec.category)))
    return false;
  const usd = table.usd[i];
  return (q.minCents === undefined || usd >= q.minCents) && (q.maxCents === undefined || usd <= q.maxCents);
}

/** The first `need` matches in order: kept in order while they are few (one pass), else all sorted. */
function firstInOrder(matches: number[], need: number, cmp: Order): number[] {
  if (need > 100) return matches.sort(cmp).slice(0, need);
  const best: number[] = [];
  for (const m of matches) {
    if (best.length === need && cmp(m, best[need - 1]) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(best[mid], m) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, m);
    if (best.length > need) best.pop();
  }
  return best;
}

/**
 * Calls `visit` with each position a search considers: those within the radius (the listing
 * table's k-d tree), those `q` finds, both, or every listing.
 */
function eachCandidate(
  table: ListingTable,
  q: SearchQuery,
  text: Found | undefined,
  visit: (i: number) => void,
): void {
  const near = q.geo && table.within(q.geo.lat, q.geo.lng, q.geo.radiusKm);
  if (near) {
    for (const i of near) if (!text || text[i] !== 0) visit(i);
  } else if (text) {
    for (let i = 0; i < text.length; i += 1) if (text[i] !== 0) visit(i);
  } else {
    for (let i = 0; i < table.recs.length; i += 1) visit(i);
  }
}

/**
 * Runs a search: the listings `q` finds and the location holds (every listing without them),
 * those shown at `now` that pass the filters, in order (featured first, then with `ranked` the
 * text tiers, then `sort`), counted, and the requested page cut.
 */
export function runSearch(table: ListingTable, q: SearchQuery): SearchResult {
  const text = textMatches(table, q.q, q.lang);
  const matches: number[] = [];
  eachCandidate(table, q, text, (i) => {
    if (passes(table, q, i)) matches.push(i);
  });
  const from = (q.page - 1) * q.limit;
  const page = firstInOrder(matches, from + q.limit, comparator(table, q, text)).slice(from);
  return {
    items: page.map((i) => table.recs[i]),
    terms: page.map((i) => table.termAt(i, q.now)),
    total: matches.length,
  };
}
