/**
 * The searchable fields of every listing as typed arrays (one slot per index position): a filter
 * scan over 100k listings then reads a few contiguous arrays instead of chasing 100k objects.
 */
export class Columns {
  /** The start and end of the listing's term at the index's time (index-terms.ts). */
  created: Float64Array;
  expires: Float64Array;
  /** 1 where the listing is relisted when its term ends (listing-state.ts `relists`). */
  relists: Uint8Array;
  /** `price_cents` as stored (the listing's own currency). */
  price: Float64Array;
  /** The price in USD cents at the index's rate window (what minPrice, maxPrice and the price sorts use). */
  usd: Float64Array;
  type: Uint8Array;
  category: Uint16Array;
  currency: Uint16Array;
  store: Uint32Array;
  qty: Float64Array;
  featured: Uint8Array;

  constructor(readonly capacity: number) {
    this.created = new Float64Array(capacity);
    this.expires = new Float64Array(capacity);
    this.relists = new Uint8Array(capacity);
    this.price = new Float64Array(capacity);
    this.usd = new Float64Array(capacity);
    this.type = new Uint8Array(capacity);
    this.category = new Uint16Array(capacity);
    this.currency = new Uint16Array(capacity);
    this.store = new Uint32Array(capacity);
    this.qty = new Float64Array(capacity);
    this.featured = new Uint8Array(capacity);
  }

  /** This, or a copy with room for at least `size` slots (capacity doubles). */
  ensure(size: number): Columns {
    if (size <= this.capacity) return this;
    const next = new Columns(Math.max(size, this.capacity * 2, 64));
    next.created.set(this.created);
    next.expires.set(this.expires);
    next.relists.set(this.relists);
    next.price.set(this.price);
    next.usd.set(this.usd);
    next.type.set(this.type);
    next.category.set(this.category);
    next.currency.set(this.currency);
    next.store.set(this.store);
    next.qty.set(this.qty);
    next.featured.set(this.featured);
    return next;
  }
}
