import type { ListingRecord, ListingType } from '../../store/types.js';
import { lexicon, type Lexicon } from '../../i18n/lexicon.js';
import { segment, UNSPACED, words } from '../../i18n/text.js';
import { intersectInto, unionInto, type Scratch } from './positions.js';
import { TYPES, type SearchIndex, type Sort } from './search-index.js';

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
  return distanceFrom(lat1, lng1, Math.cos(lat1 * RAD), lat2, lng2);
}

const RAD = Math.PI / 180;

/** {@link distanceKm} with the first point's cosine given: one point against many, same arithmetic. */
function distanceFrom(lat1: number, lng1: number, cosLat1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + cosLat1 * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
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
 * language), sorted: per word the union of its concepts' postings, then the intersection.
 */
function textMatches(
  q: string | undefined,
  index: SearchIndex,
  lex: Lexicon,
  s: Scratch,
): Int32Array | undefined {
  if (q === undefined) return undefined;
  const ws = queryWords(q, index, lex).slice(0, 32);
  if (ws.length === 0) return undefined;
  const n = index.recs.length;
  let found: Int32Array | undefined;
  for (const w of ws) {
    const lists: number[][] = [];
    for (const c of conceptsFor(w, index, lex)) {
      const list = index.postings.get(c);
      if (list) lists.push(list);
    }
    found =
      found === undefined
        ? unionInto(s.lists[0], lists, s, n)
        : intersectInto(s.lists[0], found, unionInto(s.lists[1], lists, s, n));
    if (found.length === 0) break;
  }
  return found;
}

/** What sorting one match by its rank costs, in steps of the walk down an order (measured: ~40 vs ~8 ns). */
const SORT_STEPS = 4;

/** No point of a 1° cell is farther than this from the cell's centre (km, at the equator). */
const CELL_HALF_DIAGONAL_KM = 80;

/**
 * Listings within the radius, sorted. Cells (1° buckets; only the few with listings exist) are
 * judged by their centre first: a cell surely outside is skipped, one surely inside is taken
 * whole, and only the cells on the circle's edge check each listing.
 */
function geoMatches(
  geo: SearchQuery['geo'],
  index: SearchIndex,
  s: Scratch,
  out: Int32Array,
): Int32Array | undefined {
  if (!geo) return undefined;
  const lists: ArrayLike<number>[] = [];
  const cosLat = Math.cos(geo.lat * RAD);
  for (const cell of index.grid.values()) {
    const d = distanceFrom(geo.lat, geo.lng, cosLat, cell.lat, cell.lng);
    if (d - CELL_HALF_DIAGONAL_KM > geo.radiusKm) continue;
    if (d + CELL_HALF_DIAGONAL_KM <= geo.radiusKm) {
      lists.push(cell.positions);
      continue;
    }
    const { positions, lats, lngs } = cell;
    const inside: number[] = [];
    for (let k = 0; k < positions.length; k += 1)
      if (distanceFrom(geo.lat, geo.lng, cosLat, lats[k], lngs[k]) <= geo.radiusKm) inside.push(positions[k]);
    lists.push(inside);
  }
  return unionInto(out, lists, s, index.recs.length);
}

/** Whether a listing is shown at all: not past its duration and not sold out. */
export function isListed(index: SearchIndex, i: number, now: number): boolean {
  return listed(index.cols, i, now);
}

function listed(c: SearchIndex['cols'], i: number, now: number): boolean {
  return c.expires[i] > now && c.qty[i] > 0;
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

type Filter = NonNullable<ReturnType<typeof filterOf>>;

/** Whether listing `i` is shown (not expired, not sold out) and passes the column filters. */
function passes(c: SearchIndex['cols'], f: Filter, now: number, i: number): boolean {
  if (!listed(c, i, now)) return false;
  if ((f.type >= 0 && c.type[i] !== f.type) || (f.currency > 0 && c.currency[i] !== f.currency)) return false;
  if ((f.store > 0 && c.store[i] !== f.store) || c.price[i] < f.min || c.price[i] > f.max) return false;
  return f.categories === undefined || f.categories.has(c.category[i]);
}

/**
 * The positions text and location allow (sorted), or undefined when the search has neither. The
 * result lives in the scratch buffers: it is valid until the next search.
 */
function candidates(
  query: SearchQuery,
  index: SearchIndex,
  lex: Lexicon,
  s: Scratch,
): Int32Array | undefined {
  const text = textMatches(query.q, index, lex, s);
  if (text !== undefined && text.length === 0) return text;
  const near = geoMatches(query.geo, index, s, s.lists[text === undefined ? 0 : 1]);
  if (text === undefined) return near;
  return near === undefined ? text : intersectInto(s.lists[0], text, near);
}

/**
 * Runs a search over the index: featured listings first, then the chosen order; counts every
 * match and builds only the requested page.
 *
 * 1. Text and location give sorted candidate positions from the postings and the grid (or every
 *    position when the search has neither).
 * 2. One pass over those, in position order, checks the column filters, counts the matches (the
 *    featured ones apart) and keeps the non-featured ones while they are few (≤ 1/16 of all).
 * 3. The page's featured part: the featured candidates sorted by their place in the order, or,
 *    without candidates, a walk down the order's featured listings that stops at the page's end.
 * 4. The rest comes from sorting the kept positions by their place in the order (a numeric sort)
 *    when that is cheaper than walking the order until the page is full: the walk takes about
 *    (page end × listings / matches) steps, short when matches are dense or the page is early.
 */
export function runSearch(index: SearchIndex, query: SearchQuery, lex: Lexicon = lexicon()): SearchResult {
  const f = filterOf(index, query);
  if (!f) return { items: [], total: 0 };
  const n = index.recs.length;
  const s = index.scratch.ensure(n);
  const cand = candidates(query, index, lex, s);
  const c = index.cols;
  const { featured } = c;
  const now = query.now;
  const split = query.featuredFirst !== false;
  const cap = n / 16;
  let total = 0;
  let featuredTotal = 0;
  // Non-featured matches while they are few, in the spare buffer (free once candidates are made).
  const kept = s.spare;
  let keptCount = 0;
  let keptAll = true;
  // Featured matches among candidates (few: featured listings are a small share of all).
  const keptFeatured: number[] = [];
  const scanned = cand === undefined ? n : cand.length;
  for (let k = 0; k < scanned; k += 1) {
    const i = cand === undefined ? k : cand[k];
    if (!passes(c, f, now, i)) continue;
    total += 1;
    if (split && featured[i] === 1) {
      featuredTotal += 1;
      if (cand !== undefined) keptFeatured.push(i);
    } else if (keptAll) {
      if (keptCount < cap) kept[keptCount++] = i;
      else keptAll = false;
    }
  }
  const from = (query.page - 1) * query.limit;
  const need = from + query.limit;
  const page: number[] = [];
  const order = index.orders[query.sort];
  /** Places `from`…`to` (exclusive) of `count` positions in the order: a numeric sort of their ranks. */
  const inOrder = (positions: ArrayLike<number>, count: number, from: number, to: number) => {
    const rank = index.ranks[query.sort];
    const ranks = new Int32Array(count);
    for (let k = 0; k < count; k += 1) ranks[k] = rank[positions[k]];
    ranks.sort();
    for (let k = from; k < Math.min(to, count); k += 1) page.push(order[ranks[k]]);
  };
  if (from < featuredTotal && cand !== undefined) inOrder(keptFeatured, keptFeatured.length, from, need);
  else if (from < featuredTotal) {
    let seen = 0;
    for (const i of index.featuredOrder(query.sort)) {
      if (!passes(c, f, now, i)) continue;
      if (seen >= from) page.push(i);
      seen += 1;
      if (seen >= need) break;
    }
  }
  const restFrom = Math.max(0, from - featuredTotal);
  const restNeed = need - featuredTotal;
  const rest = total - featuredTotal;
  if (restNeed > restFrom && rest > 0) {
    // The walk down the order takes about restNeed × n / rest steps; sorting costs a few steps a match.
    if (keptAll && rest * rest * SORT_STEPS < restNeed * n) inOrder(kept, keptCount, restFrom, restNeed);
    else {
      // Walk down the order until the page is full, with the candidates marked for membership.
      const { marks } = s;
      if (cand !== undefined) for (let k = 0; k < cand.length; k += 1) marks[cand[k]] = 1;
      let seen = 0;
      for (let k = 0; k < order.length && seen < restNeed; k += 1) {
        const i = order[k];
        if (split && featured[i] === 1) continue;
        if ((cand !== undefined && marks[i] === 0) || !passes(c, f, now, i)) continue;
        if (seen >= restFrom) page.push(i);
        seen += 1;
      }
      if (cand !== undefined) marks.fill(0, 0, n);
    }
  }
  return { items: page.map((i) => index.recs[i]), total };
}
