import type { Query } from '../../contract/types.js';
import type { ListingRecord, ListingType } from '../../store/types.js';
import { vocabulary } from '../../search/catalog-text.js';
import type { ListingTable } from '../../search/listing-table.js';
import { catalogHits, queryWords, TIER, wordGroups, wordHits, type Hits } from '../../search/text-match.js';
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

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/**
 * Great-circle distance in km (haversine).
 * @example distanceKm(52.52, 13.405, 48.8566, 2.3522) // ≈ 878
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The listings one query word finds, each with its tier (search/text-match.ts): through the
 * catalogue documents of their texts and kinds, and users' listings through their own texts and
 * the words of the kinds the word names.
 */
function wordListings(table: ListingTable, word: string, lang: string | undefined): Map<number, number> {
  const found = new Map<number, number>();
  const take = (i: number, tier: number) => {
    const was = found.get(i);
    if (was === undefined || tier < was) found.set(i, tier);
  };
  const hits = catalogHits(word, lang);
  for (const [doc, tier] of hits) for (const i of table.docs.get(doc) ?? []) take(i, tier);
  if (table.users.length > 0) {
    const users = table.usersIndex();
    const own: Hits = new Map();
    for (const l of new Set([...(lang ? [lang] : []), 'en']))
      wordHits(users, word, l, true, own, [`title_${l}`, `description_${l}`]);
    for (const [doc, tier] of own) take(Number(doc), tier);
    // A kind the word names finds the users' listings whose title names it too, as its own listings.
    const named: Hits = new Map();
    for (const kind of vocabulary().kinds)
      if (hits.has(`k:${kind.id}`))
        for (const [l, words] of Object.entries(kind.words))
          for (const w of words) wordHits(users, w, l, false, named, [`title_${l}`, `description_${l}`]);
    for (const [doc, tier] of named) take(Number(doc), tier === TIER.title ? TIER.kind : tier);
  }
  return found;
}

/** Keeps in `found` the listings `next` has too (AND), each with the weaker of its two tiers. */
function keepBoth(found: Map<number, number>, next: Map<number, number>): void {
  for (const [i, tier] of found) {
    const t = next.get(i);
    if (t === undefined) found.delete(i);
    else if (t > tier) found.set(i, t);
  }
}

/** What every word finds (AND), each listing with its weakest word's tier. */
function allOf(table: ListingTable, words: string[], lang: string | undefined): Map<number, number> {
  const [first, ...rest] = words;
  const found = wordListings(table, first, lang);
  for (const word of rest) if (found.size > 0) keepBoth(found, wordListings(table, word, lang));
  return found;
}

/**
 * Every listing `q` finds: each group of its words (text-match.ts `wordGroups`) must match (AND);
 * a group naming kinds finds their listings (the kind's tier) and what its words find together;
 * each listing ranks by its weakest group. Undefined when `q` has no words.
 */
export function textMatches(table: ListingTable, q: string | undefined, lang: string | undefined) {
  if (q === undefined) return undefined;
  const words = queryWords(q, lang);
  if (words.length === 0) return undefined;
  const groups = wordGroups(words).map(({ words: ws, kinds }) => {
    const found = allOf(table, ws, lang);
    for (const kind of kinds) for (const i of table.docs.get(`k:${kind}`) ?? []) found.set(i, TIER.kind);
    return found;
  });
  const [first, ...rest] = groups;
  for (const next of rest) keepBoth(first, next);
  return first;
}

/** One match: its position, tier and term at the searched time. */
interface Match {
  i: number;
  tier: number;
  term: Term;
}

/** The order of matches: featured first (when asked), tier (when ranked), the sort, then newest and id. */
function comparator(table: ListingTable, q: SearchQuery): (a: Match, b: Match) => number {
  const { recs, usd } = table;
  const split = q.featuredFirst !== false;
  const ranked = q.ranked === true;
  const newest = (a: Match, b: Match) =>
    b.term.created - a.term.created || (recs[a.i].id < recs[b.i].id ? 1 : -1);
  const bySort = {
    newest,
    price_low: (a: Match, b: Match) => usd[a.i] - usd[b.i] || newest(a, b),
    price_high: (a: Match, b: Match) => usd[b.i] - usd[a.i] || newest(a, b),
    ending_soon: (a: Match, b: Match) => a.term.expires - b.term.expires || newest(a, b),
  }[q.sort];
  return (a, b) =>
    (split ? Number(recs[b.i].is_featured) - Number(recs[a.i].is_featured) : 0) ||
    (ranked ? a.tier - b.tier : 0) ||
    bySort(a, b);
}

/** Whether listing `i` passes the query's filters at its term `term`. */
function passes(table: ListingTable, q: SearchQuery, i: number, term: Term): boolean {
  const rec = table.recs[i];
  if (term.expires <= q.now || rec.quantity_available <= 0) return false;
  if ((q.type && rec.type !== q.type) || (q.currency && rec.currency !== q.currency)) return false;
  if ((q.storeSlug && rec.store_slug !== q.storeSlug) || (q.categories && !q.categories.has(rec.category)))
    return false;
  const usd = table.usd[i];
  if ((q.minCents !== undefined && usd < q.minCents) || (q.maxCents !== undefined && usd > q.maxCents))
    return false;
  if (!q.geo) return true;
  if (rec.lat === null || rec.lng === null) return false;
  return distanceKm(q.geo.lat, q.geo.lng, rec.lat, rec.lng) <= q.geo.radiusKm;
}

/** The first `need` matches in order: kept in order while they are few (one pass), else all sorted. */
function firstInOrder(matches: Match[], need: number, cmp: (a: Match, b: Match) => number): Match[] {
  if (need > 100) return matches.sort(cmp).slice(0, need);
  const best: Match[] = [];
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
 * Runs a search: the listings `q` finds (every listing without it), those shown at `now` that
 * pass the filters, in order (featured first, then with `ranked` the text tiers, then `sort`),
 * counted, and the requested page cut.
 */
export function runSearch(table: ListingTable, q: SearchQuery): SearchResult {
  const text = textMatches(table, q.q, q.lang);
  const matches: Match[] = [];
  const consider = (i: number, tier: number) => {
    const term = table.termAt(i, q.now);
    if (passes(table, q, i, term)) matches.push({ i, tier, term });
  };
  if (text) for (const [i, tier] of text) consider(i, tier);
  else for (let i = 0; i < table.recs.length; i += 1) consider(i, 0);
  const from = (q.page - 1) * q.limit;
  const page = firstInOrder(
    matches,
    from + q.limit,
    comparator(table, { ...q, ranked: q.ranked && !!text }),
  ).slice(from);
  return { items: page.map((m) => table.recs[m.i]), terms: page.map((m) => m.term), total: matches.length };
}
