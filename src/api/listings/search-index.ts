import type { Db, Duration, ListingRecord } from '../../store/types.js';
import { extra, type World } from '../../world.js';
import { toUsdCents } from '../catalog/currencies.js';
import { conceptsOf } from '../catalog/translate.js';

export type Sort = 'newest' | 'price_low' | 'price_high' | 'ending_soon';
export const SORTS: Sort[] = ['newest', 'price_low', 'price_high', 'ending_soon'];

export const DURATION_MS: Record<Duration, number> = {
  '1day': 86_400_000,
  '2weeks': 14 * 86_400_000,
  '1year': 365 * 86_400_000,
};

/** When a listing stops being shown: `created_at` + its duration. */
export function expiresAt(listing: Pick<ListingRecord, 'created_at' | 'duration'>): number {
  return Date.parse(listing.created_at) + DURATION_MS[listing.duration];
}

/** One listing as the index sees it; `rec` is the live record, read for every mutable field. */
export interface Entry {
  rec: ListingRecord;
  created: number;
  expires: number;
  usd: number;
}

/** Grid cell size in degrees for the spatial buckets. */
export const CELL_DEG = 1;
export const cellKey = (lat: number, lng: number): string =>
  `${Math.floor(lat / CELL_DEG)}:${Math.floor(lng / CELL_DEG)}`;

const compare: Record<Sort, (a: Entry, b: Entry) => number> = {
  newest: (a, b) => b.created - a.created || (a.rec.id < b.rec.id ? 1 : -1),
  price_low: (a, b) => a.usd - b.usd || compare.newest(a, b),
  price_high: (a, b) => b.usd - a.usd || compare.newest(a, b),
  ending_soon: (a, b) => a.expires - b.expires || compare.newest(a, b),
};

/**
 * A world's search index: entries, concept postings (any language's word → English concept →
 * listings), spatial buckets and the four sort orders. Built on first use, rebuilt when the
 * database or its listings object is swapped (reset, snapshot restore), and extended in place
 * when listings are added. Mutable fields (quantity, featured) are read live from the records.
 */
export class SearchIndex {
  entries: Entry[] = [];
  pos = new Map<string, number>();
  postings = new Map<string, number[]>();
  /** Words kept as written (not in the vocabulary), sorted for prefix search. */
  literals: string[] = [];
  grid = new Map<string, number[]>();
  orders: Record<Sort, number[]> = { newest: [], price_low: [], price_high: [], ending_soon: [] };
  private db: Db | null = null;
  private listingsRef: Record<string, ListingRecord> | null = null;
  private nextId = -1;

  /** Brings the index up to date with the world's database (cheap when nothing changed). */
  sync(db: Db): void {
    if (db !== this.db || db.listings !== this.listingsRef) return this.rebuild(db);
    if (db.meta.next_id === this.nextId) return;
    this.nextId = db.meta.next_id;
    const ids = Object.keys(db.listings);
    if (ids.length < this.entries.length) return this.rebuild(db);
    if (ids.length === this.entries.length) return;
    for (const id of ids) if (!this.pos.has(id)) this.add(db.listings[id]);
  }

  private rebuild(db: Db): void {
    this.db = db;
    this.listingsRef = db.listings;
    this.nextId = db.meta.next_id;
    this.entries = [];
    this.pos.clear();
    this.postings.clear();
    this.grid.clear();
    const literals = new Set<string>();
    for (const rec of Object.values(db.listings)) this.place(rec, literals);
    this.literals = [...literals].sort();
    for (const sort of SORTS) {
      const order = this.entries.map((_, i) => i);
      const cmp = compare[sort];
      order.sort((a, b) => cmp(this.entries[a], this.entries[b]));
      this.orders[sort] = order;
    }
  }

  /** Appends one entry (postings, grid); the caller keeps the orders. */
  private place(rec: ListingRecord, literals: Set<string>): number {
    const i = this.entries.length;
    const entry: Entry = {
      rec,
      created: Date.parse(rec.created_at),
      expires: expiresAt(rec),
      usd: toUsdCents(rec.price_cents, rec.currency),
    };
    this.entries.push(entry);
    this.pos.set(rec.id, i);
    for (const concept of conceptsOf(`${rec.title}. ${rec.description ?? ''}`)) {
      const list = this.postings.get(concept);
      if (list) list.push(i);
      else this.postings.set(concept, [i]);
      if (concept.startsWith('l:')) literals.add(concept.slice(2));
    }
    if (rec.lat !== null && rec.lng !== null) {
      const key = cellKey(rec.lat, rec.lng);
      const cell = this.grid.get(key);
      if (cell) cell.push(i);
      else this.grid.set(key, [i]);
    }
    return i;
  }

  /** Adds a listing created after the build (keeps every order sorted). */
  add(rec: ListingRecord): void {
    if (this.pos.has(rec.id)) return;
    const literals = new Set(this.literals);
    const i = this.place(rec, literals);
    if (literals.size !== this.literals.length) this.literals = [...literals].sort();
    for (const sort of SORTS) {
      const order = this.orders[sort];
      const cmp = compare[sort];
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(this.entries[order[mid]], this.entries[i]) <= 0) lo = mid + 1;
        else hi = mid;
      }
      order.splice(lo, 0, i);
    }
  }
}

/** The world's index, up to date. */
export function searchIndex(world: World): SearchIndex {
  const index = extra(world, 'catalog.searchIndex', () => new SearchIndex());
  index.sync(world.store.db);
  return index;
}
