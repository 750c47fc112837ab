import { lexicon } from '../i18n/lexicon.js';
import { listingTitle } from '../i18n/listing-text.js';
import { normalize } from '../i18n/text.js';
import { firstTerm } from '../api/listings/listing-state.js';
import type { ListingInterner } from '../store/intern.js';
import type { ListingRecord } from '../store/types.js';
import type { Draw } from './catalog-data.js';
import type { SeedContext } from './context.js';
import { drawItem } from './item-draw.js';
import type { Pools } from './pools.js';

/** Listings at the top of the default search whose titles are kept apart: five pages of the largest page. */
export const UNIQUE_TOP = 250;
/** Variants tried for a listing before another template of its subcategory is drawn. */
const VARIANT_TRIES = 8;
const TEMPLATE_TRIES = 8;

/** ISO instants of one format compare as strings. */
const later = (a: string, b: string) => (a > b ? -1 : a < b ? 1 : 0);

/** The first `count` of the default search's order at the seed's start: listed, featured first, then newest. */
function defaultTop(listings: ListingRecord[], now: number, count: number): ListingRecord[] {
  const shown = listings.filter((l) => firstTerm(l).expires > now && l.quantity_available > 0);
  const newest = (a: ListingRecord, b: ListingRecord) =>
    later(a.created_at, b.created_at) || (a.id < b.id ? 1 : -1);
  const featured = shown.filter((l) => l.is_featured).sort(newest);
  if (featured.length >= count) return featured.slice(0, count);
  // Only the newest few of the rest matter: a cut by date before sorting keeps the sort small.
  const rest = shown.filter((l) => !l.is_featured);
  const dates = rest.map((l) => l.created_at).sort(later);
  const cut = dates[Math.min(count, dates.length) - 1] ?? '';
  return [...featured, ...rest.filter((l) => l.created_at >= cut).sort(newest)].slice(0, count);
}

/** The keys a listing's title takes in every language (case- and accent-insensitive). */
const titleKeys = (rec: ListingRecord) =>
  lexicon().codes.map((lang) => `${lang}\u0000${normalize(listingTitle(rec, lang))}`);

/**
 * Makes the titles of the first {@link UNIQUE_TOP} listings of the default search distinct in
 * every language: a listing whose title is already shown above it gets other variants, or else an
 * item of another template of its subcategory (same type, shop and city), preferring a title that
 * no listing of the whole catalogue has. The test accounts' listings (`fixed`) are kept as they
 * are and claim their titles first. Deterministic: its own seeded draw, the same listings in the
 * same order.
 */
export function uniqueFirstPages(
  ctx: SeedContext,
  pools: Pools,
  run: { draw: Draw; fixed: Set<string>; interner: ListingInterner },
): void {
  const seen = new Set<string>();
  const claim = (rec: ListingRecord) => {
    const keys = titleKeys(rec);
    if (keys.some((k) => seen.has(k))) return false;
    for (const k of keys) seen.add(k);
    return true;
  };
  const all = Object.values(ctx.db.listings);
  let english: Map<string, number> | undefined;
  for (const rec of all) if (run.fixed.has(rec.id)) claim(rec);
  for (const rec of defaultTop(all, ctx.now, UNIQUE_TOP)) {
    if (run.fixed.has(rec.id) || claim(rec)) continue;
    // The catalogue's English titles, counted once the first listing needs another title.
    english ??= counts(all.map((l) => l.title));
    english.set(rec.title, (english.get(rec.title) ?? 1) - 1);
    const inCatalogue = english;
    const unique = (r: ListingRecord) => !(inCatalogue.get(r.title) ?? 0) && claim(r);
    if (!redraw(rec, pools, run.draw, unique)) redraw(rec, pools, run.draw, claim);
    english.set(rec.title, (english.get(rec.title) ?? 0) + 1);
    run.interner.listing(rec);
  }
}

const counts = (titles: string[]) => {
  const found = new Map<string, number>();
  for (const t of titles) found.set(t, (found.get(t) ?? 0) + 1);
  return found;
};

/**
 * Other variants, then other templates of the subcategory, until `claim` takes the title;
 * false when none did (the listing keeps the last one drawn).
 */
function redraw(rec: ListingRecord, pools: Pools, d: Draw, claim: (rec: ListingRecord) => boolean): boolean {
  const template = pools.templates.find((t) => rec.text_ref?.split('|')[0] === t.id);
  if (!template) return true;
  for (let k = 0; k < VARIANT_TRIES; k += 1) {
    // Other variants with the price and stock they call for (a used item is priced and stocked as one).
    Object.assign(rec, drawItem(d, template, rec.type, rec.location_country ?? '', pools.rates));
    if (claim(rec)) return true;
  }
  const others = pools.templates.filter(
    (t) => t.subcategory === template.subcategory && t.id !== template.id && t.types.includes(rec.type),
  );
  for (let k = 0; k < TEMPLATE_TRIES && others.length > 0; k += 1) {
    Object.assign(rec, drawItem(d, d.any(others), rec.type, rec.location_country ?? '', pools.rates));
    if (claim(rec)) return true;
  }
  return false;
}
