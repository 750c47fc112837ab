import type { ListingRecord, ListingType } from '../../store/types.js';
import { lexicon, type Lexicon } from '../catalog/lexicon.js';
import { segment, UNSPACED, words } from '../catalog/text.js';
import { CELL_DEG, TYPES, type SearchIndex, type Sort } from './search-index.js';

/** A validated search: every filter optional; `now` is the sandbox clock in ms. */
export interface SearchQuery {
  q?: string;
  type?: ListingType;
  /** Allowed category slugs (a parent and its subcategories), or undefined for all. */
  categories?: Set<string>;
  /** Inclusive bounds on `price_cents` (minPrice/maxPrice × 100; no currency conversion). */
  minCents?: number;
  maxCents?: number;
  currency?: string;
  geo?: { lat: number; lng: number; radiusKm: number };
  storeSlug?: string;
  /** Featured listings first (top-of-search); default true. */
  featuredFirst?: boolean;
  sort: Sort;
  page: number;
  limit: number;
  now: number;
}

export interface SearchResult {
  items: ListingRecord[];
  total: number;
}

const EARTH_RADIUS_KM = 6371.0088;

/**
 * Great-circle distance in km (haversine).
 * @example distanceKm(52.52, 13.405, 48.8566, 2.3522) // ≈ 878
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The query's words; runs of Chinese/Japanese characters are segmented against known terms. */
export function queryWords(q: string, index: SearchIndex, lex: Lexicon = lexicon()): string[] {
  const known = (t: string) => lex.terms.has(t) || index.postings.has(`l:${t}`);
  return words(q).flatMap((w) => (UNSPACED.test(w) ? segment(w, known) : [w]));
}

/** Concepts of terms starting with `prefix`: the static dictionary plus the world's literal words. */
function conceptsFor(prefix: string, index: SearchIndex, lex: Lexicon): Set<string> {
  const concepts = new Set<string>();
  lex.conceptsWithPrefix(prefix, concepts);
  const lits = index.literals;
  let lo = 0;
  let hi = lits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lits[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < lits.length && lits[i].startsWith(prefix); i += 1) concepts.add(`l:${lits[i]}`);
  return concepts;
}

/**
 * Positions matching every word of `q` (AND; a word matches the start of a word in any
 * language): a counter per listing is raised once per word it matches.
 */
function textMatches(q: string | undefined, index: SearchIndex, lex: Lexicon): Uint8Array | undefined {
  if (q === undefined) return undefined;
  const ws = queryWords(q, index, lex).slice(0, 32);
  if (ws.length === 0) return undefined;
  const hits = new Uint8Array(index.recs.length);
  ws.forEach((w, k) => {
    for (const c of conceptsFor(w, index, lex)) {
      for (const i of index.postings.get(c) ?? []) if (hits[i] === k) hits[i] = k + 1;
    }
  });
  for (let i = 0; i < hits.length; i += 1) hits[i] = hits[i] === ws.length ? 1 : 0;
  return hits;
}

/** No point of a 1° cell is farther than this from the cell's centre (km, at the equator). */
const CELL_HALF_DIAGONAL_KM = 80;

/**
 * Listings within the radius. Cells (1° buckets; only the few with listings exist) are judged
 * by their centre first: a cell surely outside is skipped, one surely inside is taken whole,
 * and only the cells on the circle's edge check each listing.
 */
function geoMatches(geo: SearchQuery['geo'], index: SearchIndex): Uint8Array | undefined {
  if (!geo) return undefined;
  const mark = new Uint8Array(index.recs.length);
  for (const [key, cell] of index.grid) {
    const [a, b] = key.split(':').map(Number);
    const d = distanceKm(geo.lat, geo.lng, (a + 0.5) * CELL_DEG, (b + 0.5) * CELL_DEG);
    if (d - CELL_HALF_DIAGONAL_KM > geo.radiusKm) continue;
    const whole = d + CELL_HALF_DIAGONAL_KM <= geo.radiusKm;
    for (const i of cell) {
      const { lat, lng } = index.recs[i];
      if (whole || distanceKm(geo.lat, geo.lng, lat as number, lng as number) <= geo.radiusKm) mark[i] = 1;
    }
  }
  return mark;
}

/** Whether a listing is shown at all: not past its duration and not sold out. */
export function isListed(index: SearchIndex, i: number, now: number): boolean {
  return index.cols.expires[i] > now && index.cols.qty[i] > 0;
}

/** The query's filters as column codes; `null` when a filter can match nothing. */
function filterOf(index: SearchIndex, q: SearchQuery) {
  const code = (kind: keyof SearchIndex['codes'], value: string | undefined) =>
    value === undefined ? 0 : (index.codes[kind].get(value) ?? -1);
  const categories = q.categories
    ? new Set([...q.categories].map((slug) => index.codes.category.get(slug) ?? -1))
    : undefined;
  const f = {
    type: q.type === undefined ? -1 : TYPES.indexOf(q.type),
    categories,
    currency: code('currency', q.currency),
    store: code('store', q.storeSlug),
    min: q.minCents === undefined ? -Infinity : q.minCents,
    max: q.maxCents === undefined ? Infinity : q.maxCents,
  };
  return f.currency === -1 || f.store === -1 ? null : f;
}

/**
 * When text or location leave few candidates, sorting just those beats scanning the whole
 * precomputed order; undefined means "scan the order".
 */
function candidateOrder(
  index: SearchIndex,
  sort: Sort,
  text?: Uint8Array,
  near?: Uint8Array,
): number[] | undefined {
  if (!text && !near) return undefined;
  const out: number[] = [];
  const cap = index.recs.length / 16;
  for (let i = 0; i < index.recs.length; i += 1) {
    if ((text && !text[i]) || (near && !near[i])) continue;
    out.push(i);
    if (out.length > cap) return undefined;
  }
  return out.sort(index.comparator(sort));
}

/**
 * Runs a search over the index: featured listings first, then the chosen order; counts every
 * match and keeps only the requested page.
 */
export function runSearch(index: SearchIndex, query: SearchQuery, lex: Lexicon = lexicon()): SearchResult {
  const text = textMatches(query.q, index, lex);
  const near = geoMatches(query.geo, index);
  const f = filterOf(index, query);
  if (!f) return { items: [], total: 0 };
  const order = candidateOrder(index, query.sort, text, near) ?? index.orders[query.sort];
  const { featured, type, category, currency, store, price, expires, qty } = index.cols;
  const now = query.now;
  const from = (query.page - 1) * query.limit;
  const need = from + query.limit;
  const split = query.featuredFirst !== false;
  // One pass: featured matches all kept (few), other matches counted, kept only up to the page.
  const top: number[] = [];
  const rest: number[] = [];
  let restTotal = 0;
  for (const i of order) {
    if ((text && !text[i]) || (near && !near[i])) continue;
    if (expires[i] <= now || qty[i] <= 0) continue;
    if ((f.type >= 0 && type[i] !== f.type) || (f.currency > 0 && currency[i] !== f.currency)) continue;
    if ((f.store > 0 && store[i] !== f.store) || price[i] < f.min || price[i] > f.max) continue;
    if (f.categories && !f.categories.has(category[i])) continue;
    if (split && featured[i]) top.push(i);
    else {
      if (rest.length < need) rest.push(i);
      restTotal += 1;
    }
  }
  const page = top.concat(rest.slice(0, Math.max(0, need - top.length))).slice(from, need);
  return { items: page.map((i) => index.recs[i]), total: top.length + restTotal };
}
