import type { ListingRecord } from './types.js';

/** Listing fields whose values repeat across a large catalog (titles and texts are drawn from small pools). */
const SHARED_STRINGS = [
  'seller_id',
  'store_slug',
  'type',
  'title',
  'description',
  'category',
  'currency',
  'duration',
  'location_city',
  'location_country',
  'featured_payment_method',
  'text_ref',
] as const;

/**
 * Makes equal values of many listing records one value in memory: at 100k listings the seeded
 * titles, descriptions, image paths and currency lists repeat thousands of times, and a copy per
 * record (or a string built by concatenation, which V8 keeps as a tree of pieces) costs tens of
 * MB. Strings are immutable, so sharing them is invisible. The two arrays (`accepted_currencies`,
 * `images`) are shared frozen: records never change them in place (a change assigns a new
 * array), and a frozen array makes any code that tries fail loudly instead of changing every
 * listing at once. Keep one interner per load (seed build, file read); drop it afterwards.
 */
export class ListingInterner {
  private readonly strings = new Map<string, string>();
  private readonly arrays = new Map<string, readonly string[]>();

  /**
   * @param copy Store flat copies (values built by concatenation, as the seed makes them).
   *   Values fresh from `JSON.parse` are flat already, and V8's parser shares strings of up to
   *   10 characters by itself: those are taken as they are.
   */
  constructor(private readonly copy = true) {}

  /** The shared, flat copy of `value`. */
  string(value: string): string {
    if (!this.copy && value.length <= 10) return value;
    let shared = this.strings.get(value);
    if (shared === undefined) {
      shared = this.copy ? flat(value) : value;
      this.strings.set(shared, shared);
    }
    return shared;
  }

  /** The shared, frozen copy of a list of strings. */
  list(values: readonly string[]): readonly string[] {
    const key = values.join('\u0000');
    let shared = this.arrays.get(key);
    if (shared === undefined) {
      shared = Object.freeze(values.map((v) => this.string(v)));
      this.arrays.set(key, shared);
    }
    return shared;
  }

  /** The record with its repeated values shared (changed in place and returned). */
  listing(rec: ListingRecord): ListingRecord {
    const fields = rec as unknown as Record<string, unknown>;
    for (const key of SHARED_STRINGS) {
      const value = fields[key];
      if (typeof value === 'string') fields[key] = this.string(value);
    }
    if (Array.isArray(rec.accepted_currencies) && rec.accepted_currencies.every(isString))
      rec.accepted_currencies = this.list(rec.accepted_currencies);
    if (Array.isArray(rec.images) && rec.images.every(isString)) rec.images = this.list(rec.images);
    if (this.copy && typeof rec.created_at === 'string') rec.created_at = flat(rec.created_at);
    return rec;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * A flat (sequential) copy of a string. A string built with `+` or a template is a tree of
 * pieces in V8 (32 bytes per join, kept as long as the string lives); a JSON round trip
 * allocates one contiguous string instead.
 */
function flat(value: string): string {
  return value.length < 2 ? value : (JSON.parse(JSON.stringify(value)) as string);
}
