import type { ListingRecord, ListingType } from '../../store/types.js';
import { lexicon, type Lexicon } from '../catalog/lexicon.js';
import { segment, UNSPACED, words } from '../catalog/text.js';
import { cellKey, CELL_DEG, type Entry, type SearchIndex, type Sort } from './search-index.js';

/** A validated search: every filter optional; `now` is the sandbox clock in ms. */
export interface SearchQuery {
  q?: string;
  type?: ListingType;
  /** Allowed category slugs (a parent and its subcategories), or undefined for all. */
  categories?: Set<string>;
  /** Inclusive bounds in USD cents. */
  minUsdCents?: number;
  maxUsdCents?: number;
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

/** Listings (by index position) whose title or description, in some language, has a word starting with `prefix`. */
function matchWord(prefix: string, index: SearchIndex, lex: Lexicon): Set<number> {
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
  const out = new Set<number>();
  for (const c of concepts) for (const i of index.postings.get(c) ?? []) out.add(i);
  return out;
}

/** Every word must match (AND); undefined when there is no text filter. */
function textMatches(q: string | undefined, index: SearchIndex, lex: Lexicon): Uint8Array | undefined {
  if (q === undefined) return undefined;
  const ws = queryWords(q, index, lex);
  if (ws.length === 0) return undefined;
  let current: Set<number> | undefined;
  for (const w of ws) {
    const found = matchWord(w, index, lex);
    current = current ? new Set([...current].filter((i) => found.has(i))) : found;
    if (current.size === 0) break;
  }
  const mark = new Uint8Array(index.entries.length);
  for (const i of current ?? []) mark[i] = 1;
  return mark;
}

/** Listings within the radius, from the grid cells the circle can touch. */
function geoMatches(geo: SearchQuery['geo'], index: SearchIndex): Uint8Array | undefined {
  if (!geo) return undefined;
  const mark = new Uint8Array(index.entries.length);
  const dLat = geo.radiusKm / 111 + CELL_DEG;
  const cos = Math.cos((geo.lat * Math.PI) / 180);
  const wide = cos < 0.05 || geo.radiusKm / (111 * cos) > 170;
  const check = (i: number) => {
    const { lat, lng } = index.entries[i].rec;
    if (lat !== null && lng !== null && distanceKm(geo.lat, geo.lng, lat, lng) <= geo.radiusKm) mark[i] = 1;
  };
  if (wide || dLat > 60) {
    for (const cell of index.grid.values()) cell.forEach(check);
    return mark;
  }
  const dLng = geo.radiusKm / (111 * cos) + CELL_DEG;
  for (let lat = geo.lat - dLat; lat <= geo.lat + dLat; lat += CELL_DEG) {
    for (let lng = geo.lng - dLng; lng <= geo.lng + dLng; lng += CELL_DEG) {
      const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
      index.grid.get(cellKey(lat, wrapped))?.forEach(check);
    }
  }
  return mark;
}

/** Whether a listing is shown at all: not past its duration and not sold out. */
export function isListed(entry: Entry, now: number): boolean {
  return entry.expires > now && entry.rec.quantity_available > 0;
}

function passes(e: Entry, q: SearchQuery): boolean {
  const r = e.rec;
  if (q.type !== undefined && r.type !== q.type) return false;
  if (q.categories !== undefined && !q.categories.has(r.category)) return false;
  if (q.currency !== undefined && r.currency !== q.currency) return false;
  if (q.storeSlug !== undefined && r.store_slug !== q.storeSlug) return false;
  if (q.minUsdCents !== undefined && e.usd < q.minUsdCents - 1e-6) return false;
  if (q.maxUsdCents !== undefined && e.usd > q.maxUsdCents + 1e-6) return false;
  return isListed(e, q.now);
}

/**
 * Runs a search over the index: featured listings first, then the chosen order; counts every
 * match and keeps only the requested page.
 */
export function runSearch(index: SearchIndex, query: SearchQuery, lex: Lexicon = lexicon()): SearchResult {
  const text = textMatches(query.q, index, lex);
  const near = geoMatches(query.geo, index);
  const from = (query.page - 1) * query.limit;
  const items: ListingRecord[] = [];
  let total = 0;
  const order = index.orders[query.sort];
  const passOrder = query.featuredFirst === false ? [null] : [true, false];
  for (const featured of passOrder) {
    for (const i of order) {
      const e = index.entries[i];
      if (featured !== null && e.rec.is_featured !== featured) continue;
      if ((text && !text[i]) || (near && !near[i]) || !passes(e, query)) continue;
      if (total >= from && items.length < query.limit) items.push(e.rec);
      total += 1;
    }
  }
  return { items, total };
}
