import type { Query } from '../../contract/types.js';
import type { Db, ListingRecord, ListingType } from '../../store/types.js';
import { extra, type World } from '../../world/world.js';
import { ratesNow, type RateTable } from '../wallet/rates.js';
import { Columns } from './columns.js';
import { placeTerm, reorder, rollTerms, TermSpan } from './index-terms.js';
import { ListingParts } from './listing-parts.js';
import { seedStartOf } from './listing-state.js';
import { Scratch } from './positions.js';
import { fillUsd, priceOrder } from './usd-prices.js';

/** The orders a search can be sorted in (searchListings' `sort`). */
export type Sort = NonNullable<Query<'searchListings'>['sort']>;
export const SORTS: Sort[] = ['newest', 'price_low', 'price_high', 'ending_soon'];
export const TYPES: ListingType[] = ['mall', 'classifieds', 'auction', 'reverse_auction'];

/** Grid cell size in degrees for the spatial buckets. */
export const CELL_DEG = 1;
export const cellKey = (lat: number, lng: number): string =>
  `${Math.floor(lat / CELL_DEG)}:${Math.floor(lng / CELL_DEG)}`;

/**
 * One spatial bucket: its listings' positions with their coordinates beside them, so the check of
 * a bucket on a search circle's edge reads three packed arrays instead of a hundred scattered
 * listing records; and the box its listings span (listings cluster in cities: a box is often a
 * few km wide in a 1° cell), which a search judges first (search-geo.ts). `reach` is the box's
 * half-diagonal in km, NaN until a search measures it again after the box grew.
 */
export interface Cell {
  positions: number[];
  lats: number[];
  lngs: number[];
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  reach: number;
}

/** Widens a cell's box to hold a listing at `lat`, `lng`; its reach is measured again. */
function growBox(cell: Cell, lat: number, lng: number): void {
  if (lat >= cell.minLat && lat <= cell.maxLat && lng >= cell.minLng && lng <= cell.maxLng) return;
  cell.minLat = Math.min(cell.minLat, lat);
  cell.maxLat = Math.max(cell.maxLat, lat);
  cell.minLng = Math.min(cell.minLng, lng);
  cell.maxLng = Math.max(cell.maxLng, lng);
  cell.reach = NaN;
}

/**
 * A world's search index: the listings' searchable fields in typed columns (scans stay in
 * cache at 100k listings), text postings per part of the seeded texts (listing-parts.ts),
 * spatial buckets and the four sort orders. Built on first use; rebuilt when the database or its
 * listings object is swapped (reset, snapshot restore); extended in place when listings are
 * added; the mutable fields (quantity, featured) are re-read from the records after every store
 * write; prices in USD and the price orders are made again when the rate window changes; the
 * terms of relisted listings (their `created` and `expires`) are moved on, and those listings put
 * back in their places in the orders, when the clock passes the end of one (index-terms.ts).
 */
export class SearchIndex {
  recs: ListingRecord[] = [];
  cols = new Columns(0);
  pos = new Map<string, number>();
  parts = new ListingParts();
  /** The rates the `usd` column and the price orders were made at. */
  rates: RateTable = { updatedAt: '', rates: new Map() };
  grid = new Map<string, Cell>();
  orders: Record<Sort, number[]> = { newest: [], price_low: [], price_high: [], ending_soon: [] };
  /** Position → place in each order (a permutation): sorting candidates by it is a numeric sort. */
  ranks: Record<Sort, Int32Array> = {
    newest: new Int32Array(0),
    price_low: new Int32Array(0),
    price_high: new Int32Array(0),
    ending_soon: new Int32Array(0),
  };
  /** Each order restricted to featured listings; rebuilt lazily when a featured flag changes. */
  private featured: { stamp: number; orders: Partial<Record<Sort, number[]>> } = { stamp: -1, orders: {} };
  private featuredStamp = 0;
  /** Small dictionaries: category, currency and store slug → code in the columns. */
  codes = {
    category: new Map<string, number>(),
    currency: new Map<string, number>(),
    store: new Map<string, number>(),
  };
  /** Buffers every search reuses (positions.ts). */
  readonly scratch = new Scratch();
  private db: Db | null = null;
  private listingsRef: Record<string, ListingRecord> | null = null;
  private nextId = -1;
  private liveVersion = -1;
  /** The seed's start (listing-state.ts `seedStartOf`) and the times the term columns hold for. */
  private seedStart = -Infinity;
  private readonly span = new TermSpan();
  /** Sandbox time of the terms written by the last build, roll or added listing. */
  private termsAt = 0;

  /**
   * Brings the index up to date with the world's database, rates and sandbox time `now` (cheap
   * when nothing changed).
   */
  sync(db: Db, version: number, rates: RateTable, now: number): void {
    if (rates.updatedAt !== this.rates.updatedAt) this.reprice(rates);
    this.termsAt = now;
    if (version !== this.liveVersion) this.syncRecords(db, version);
    this.at(now);
  }

  /**
   * Moves the terms of relisted listings to `now` when it lies outside the span they hold for,
   * and puts the listings whose term changed back in their places in every order. Every search
   * calls it with its own `now`, so the columns always answer for the time searched at.
   */
  at(now: number): void {
    if (this.span.holds(now)) return;
    this.termsAt = now;
    const moved = rollTerms(this.cols, this.recs, { now, seedStart: this.seedStart, span: this.span });
    if (moved.length === 0) return;
    for (const sort of SORTS) reorder(this.orders[sort], this.ranks[sort], moved, this.comparator(sort));
    this.featuredStamp += 1;
  }

  private syncRecords(db: Db, version: number): void {
    if (db !== this.db || db.listings !== this.listingsRef) this.rebuild(db);
    else if (db.meta.next_id !== this.nextId) {
      this.nextId = db.meta.next_id;
      const ids = Object.keys(db.listings);
      if (ids.length < this.recs.length) this.rebuild(db);
      else if (ids.length > this.recs.length)
        for (const id of ids) if (!this.pos.has(id)) this.add(db.listings[id]);
    }
    this.refreshLive();
    this.liveVersion = version;
  }

  /** Re-reads quantity and featured flag of every record (they change through checkout and featuring). */
  private refreshLive(): void {
    const { qty, featured } = this.cols;
    let changed = false;
    for (let i = 0; i < this.recs.length; i += 1) {
      const r = this.recs[i];
      qty[i] = r.quantity_available;
      const flag = r.is_featured ? 1 : 0;
      if (featured[i] !== flag) {
        featured[i] = flag;
        changed = true;
      }
    }
    if (changed) this.featuredStamp += 1;
  }

  /** The order's featured listings, in that order. */
  featuredOrder(sort: Sort): number[] {
    if (this.featured.stamp !== this.featuredStamp) this.featured = { stamp: this.featuredStamp, orders: {} };
    let order = this.featured.orders[sort];
    if (!order) {
      const { featured } = this.cols;
      order = this.orders[sort].filter((i) => featured[i] === 1);
      this.featured.orders[sort] = order;
    }
    return order;
  }

  private rank(sort: Sort): void {
    const order = this.orders[sort];
    const rank = new Int32Array(order.length);
    for (let k = 0; k < order.length; k += 1) rank[order[k]] = k;
    this.ranks[sort] = rank;
  }

  code(kind: keyof SearchIndex['codes'], value: string | null): number {
    if (value === null) return 0;
    const map = this.codes[kind];
    let code = map.get(value);
    if (code === undefined) {
      code = map.size + 1;
      map.set(value, code);
    }
    return code;
  }

  private rebuild(db: Db): void {
    this.db = db;
    this.listingsRef = db.listings;
    this.seedStart = seedStartOf(db.meta);
    this.span.from = -Infinity;
    this.span.until = Infinity;
    this.nextId = db.meta.next_id;
    const all = Object.values(db.listings);
    this.recs = [];
    this.cols = new Columns(all.length);
    this.pos.clear();
    this.parts = new ListingParts();
    this.grid.clear();
    for (const rec of all) this.place(rec);
    fillUsd(this.cols, 0, this.recs.length, this.codes.currency, this.rates);
    for (const sort of SORTS) {
      const order = this.recs.map((_, i) => i);
      order.sort(this.comparator(sort));
      this.orders[sort] = order;
      this.rank(sort);
    }
    this.featuredStamp += 1;
  }

  /** Prices in USD at new rates, and the two price orders made again from them. */
  private reprice(rates: RateTable): void {
    this.rates = rates;
    const n = this.recs.length;
    if (n === 0) return;
    fillUsd(this.cols, 0, n, this.codes.currency, rates);
    for (const sort of ['price_low', 'price_high'] as const) {
      const fast = priceOrder(this.cols, this.ranks.newest, this.orders.newest, sort === 'price_high');
      this.orders[sort] = fast ?? this.recs.map((_, i) => i).sort(this.comparator(sort));
      this.rank(sort);
    }
    this.featuredStamp += 1;
  }

  /** Orders by position: ties broken by newest, then id, so every order is total and stable. */
  comparator(sort: Sort): (a: number, b: number) => number {
    const { created, usd, expires } = this.cols;
    const newest = (a: number, b: number) =>
      created[b] - created[a] || (this.recs[a].id < this.recs[b].id ? 1 : -1);
    if (sort === 'price_low') return (a, b) => usd[a] - usd[b] || newest(a, b);
    if (sort === 'price_high') return (a, b) => usd[b] - usd[a] || newest(a, b);
    if (sort === 'ending_soon') return (a, b) => expires[a] - expires[b] || newest(a, b);
    return newest;
  }

  /** Appends one listing (columns, text parts, grid); the caller keeps the orders and USD prices. */
  private place(rec: ListingRecord): number {
    const i = this.recs.length;
    this.recs.push(rec);
    this.cols = this.cols.ensure(i + 1);
    const c = this.cols;
    placeTerm(c, i, rec, { now: this.termsAt, seedStart: this.seedStart, span: this.span });
    c.price[i] = rec.price_cents;
    c.type[i] = TYPES.indexOf(rec.type);
    c.category[i] = this.code('category', rec.category);
    c.currency[i] = this.code('currency', rec.currency);
    c.store[i] = this.code('store', rec.store_slug);
    c.qty[i] = rec.quantity_available;
    c.featured[i] = rec.is_featured ? 1 : 0;
    this.pos.set(rec.id, i);
    this.parts.place(rec, i);
    if (rec.lat !== null && rec.lng !== null) {
      const key = cellKey(rec.lat, rec.lng);
      let cell = this.grid.get(key);
      if (!cell) {
        const { lat, lng } = rec;
        cell = {
          positions: [],
          lats: [],
          lngs: [],
          minLat: lat,
          maxLat: lat,
          minLng: lng,
          maxLng: lng,
          reach: NaN,
        };
        this.grid.set(key, cell);
      }
      cell.positions.push(i);
      cell.lats.push(rec.lat);
      cell.lngs.push(rec.lng);
      growBox(cell, rec.lat, rec.lng);
    }
    return i;
  }

  /** Adds a listing created after the build (keeps every order sorted). */
  add(rec: ListingRecord): void {
    if (this.pos.has(rec.id)) return;
    const i = this.place(rec);
    fillUsd(this.cols, i, i + 1, this.codes.currency, this.rates);
    for (const sort of SORTS) {
      const order = this.orders[sort];
      const cmp = this.comparator(sort);
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(order[mid], i) <= 0) lo = mid + 1;
        else hi = mid;
      }
      order.splice(lo, 0, i);
      this.rank(sort);
    }
    this.featuredStamp += 1;
  }
}

/** The world's index, up to date at sandbox time `now`. */
export function searchIndex(world: World, now: number = world.clock.now()): SearchIndex {
  const index = extra(world, 'catalog.searchIndex', () => new SearchIndex());
  index.sync(world.store.db, world.store.version, ratesNow(world), now);
  return index;
}
