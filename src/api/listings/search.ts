import type { ListingRecord, ListingType } from '../../store/types.js';
import type { Term } from './listing-state.js';
import { intersectInto, type Scratch } from './positions.js';
import { TYPES, type SearchIndex, type Sort } from './search-index.js';
import { geoMatches, type GeoQuery } from './search-geo.js';
import { textMatches, TIERS } from './search-text.js';

export { distanceKm } from './search-geo.js';

/** A validated search: every filter optional; `now` is the sandbox clock in ms. */
export interface SearchQuery {
  q?: string;
  /** The language `q` is read in, besides English (default `en`). */
  lang?: string;
  type?: ListingType;
  /** Allowed category slugs (a parent and its subcategories), or undefined for all. */
  categories?: Set<string>;
  /** Inclusive bounds in USD cents, on each price converted at the index's rate window. */
  minCents?: number;
  maxCents?: number;
  currency?: string;
  geo?: GeoQuery;
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
  /** Each item's term at the searched time, read from the index's columns (listing-state.ts `listingTerm`). */
  terms: Term[];
  total: number;
}

/**
 * Whether a listing is shown at all: within its term (listing-state.ts; a relisted listing always
 * is) and not sold out. The index must be at `now` (`index.at(now)`, which searchIndex and
 * runSearch do).
 */
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
  if ((f.store > 0 && c.store[i] !== f.store) || c.usd[i] < f.min || c.usd[i] > f.max) return false;
  return f.categories === undefined || f.categories.has(c.category[i]);
}

/**
 * The positions text and location allow, or undefined when the search has neither; with text,
 * each one's tier is in `s.tiers`. Sorted when they come from a location (the grid's lists are
 * merged in order, and text's are sorted to be intersected with them); text's alone are in no
 * order, which nothing after needs. The result lives in the scratch buffers: it is valid until
 * the next search.
 */
function candidates(
  query: SearchQuery,
  index: SearchIndex,
  s: Scratch,
): { cand: Int32Array | undefined; tiered: boolean } {
  const text = textMatches(query.q, query.lang ?? 'en', index, s, query.geo !== undefined);
  const tiered = text !== undefined;
  if (text !== undefined && text.length === 0) return { cand: text, tiered };
  const near = geoMatches(query.geo, index, s.lists[text === undefined ? 0 : 1]);
  if (text === undefined) return { cand: near, tiered };
  return { cand: near === undefined ? text : intersectInto(s.lists[0], text, near), tiered };
}

/**
 * The matches among the candidates (every listing when `cand` is undefined): how many, how many
 * featured (when `split`), the featured ones among candidates in `keptFeatured`, and the others
 * in `kept` while they are few (a sixteenth of all; `keptAll` false past that). Its own function:
 * the loop is the hot part of a search, and V8 compiles a long-running loop on its own (on-stack
 * replacement) with what it knows of the function so far; inside `runSearch`, code compiled so in
 * a first search knew nothing of what follows the loop, and left it on every later search.
 */
function scan(
  c: SearchIndex['cols'],
  f: Filter,
  now: number,
  cand: Int32Array | undefined,
  n: number,
  split: boolean,
  kept: Int32Array,
  keptFeatured: number[],
) {
  const { featured } = c;
  const cap = n / 16;
  let total = 0;
  let featuredTotal = 0;
  let keptCount = 0;
  let keptAll = true;
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
  return { total, featuredTotal, keptCount, keptAll };
}

/**
 * Runs a search over the index: featured listings first, then (with `q`) the text tiers, then the
 * chosen order; counts every match and builds only the requested page.
 *
 * 1. Text and location give candidate positions from the text parts and the grid (or every
 *    position when the search has neither); text also gives each candidate's tier.
 * 2. One pass over those checks the column filters, counts the matches (the
 *    featured ones apart) and keeps the non-featured ones while they are few (≤ 1/16 of all).
 * 3. The page's featured part: the featured candidates sorted by tier and place in the order, or,
 *    without candidates, a walk down the order's featured listings that stops at the page's end.
 * 4. The rest comes from sorting the kept positions by tier and place in the order, or, when
 *    there were too many to keep, from walking the order (once per tier) until the page is full:
 *    dense matches fill it soon.
 */
export function runSearch(index: SearchIndex, query: SearchQuery): SearchResult {
  index.at(query.now);
  const f = filterOf(index, query);
  if (!f) return { items: [], terms: [], total: 0 };
  const n = index.recs.length;
  const s = index.scratch.ensure(n);
  const { cand, tiered } = candidates(query, index, s);
  const c = index.cols;
  const now = query.now;
  const split = query.featuredFirst !== false;
  const kept = s.spare;
  const keptFeatured: number[] = [];
  const { total, featuredTotal, keptCount, keptAll } = scan(c, f, now, cand, n, split, kept, keptFeatured);
  const from = (query.page - 1) * query.limit;
  const need = from + query.limit;
  const page: number[] = [];
  const order = index.orders[query.sort];
  const { tiers } = s;
  /** Places `from`…`to` (exclusive) of `count` positions by tier and order: a numeric sort of keys. */
  const inOrder = (positions: ArrayLike<number>, count: number, from: number, to: number) => {
    const rank = index.ranks[query.sort];
    const keys = s.keys(count);
    for (let k = 0; k < count; k += 1) {
      const i = positions[k];
      keys[k] = (tiered ? tiers[i] * n : 0) + rank[i];
    }
    const end = Math.min(to, count);
    const sorted = keys.sort();
    for (let k = from; k < end; k += 1) page.push(order[sorted[k] % n]);
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
    // Few matches (all kept) are sorted; many are met soon enough walking down the order.
    if (keptAll) inOrder(kept, keptCount, restFrom, restNeed);
    else walkOrder(index, { order, cand, f, now, split, tiered, from: restFrom, need: restNeed, page });
  }
  const { created, expires } = c;
  const terms = page.map((i) => ({ created: created[i], expires: expires[i] }));
  return { items: page.map((i) => index.recs[i]), terms, total };
}

/** What a walk down an order needs: the candidates (marked for membership), filters and the page so far. */
interface Walk {
  order: number[];
  cand: Int32Array | undefined;
  f: Filter;
  now: number;
  split: boolean;
  tiered: boolean;
  from: number;
  need: number;
  page: number[];
}

/**
 * Walks down the order (once per tier when the search is tiered) until the page's non-featured
 * places `from`…`need` are filled, the candidates marked in the byte map for membership.
 */
function walkOrder(index: SearchIndex, w: Walk): void {
  const { marks, tiers } = index.scratch;
  const c = index.cols;
  const n = index.recs.length;
  const { cand, order } = w;
  if (cand !== undefined) for (let k = 0; k < cand.length; k += 1) marks[cand[k]] = 1;
  let seen = 0;
  for (let tier = 0; tier < (w.tiered ? TIERS : 1) && seen < w.need; tier += 1) {
    for (let k = 0; k < order.length && seen < w.need; k += 1) {
      const i = order[k];
      if (w.split && c.featured[i] === 1) continue;
      if ((cand !== undefined && marks[i] === 0) || (w.tiered && tiers[i] !== tier)) continue;
      if (!passes(c, w.f, w.now, i)) continue;
      if (seen >= w.from) w.page.push(i);
      seen += 1;
    }
  }
  if (cand !== undefined) marks.fill(0, 0, n);
}
