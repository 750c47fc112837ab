import type { Schema } from '../../contract/types.js';
import type { DeepReadonly } from '../../contract/handler.js';
import type { ListingRecord } from '../../store/types.js';
import { listingDescription, listingTitle } from '../../i18n/listing-text.js';
import { perStoreVersion, type World } from '../../world/world.js';
import { listingTerm, seedStartOf, type Term, type Timed } from './listing-state.js';

/**
 * The term of a listing of the world at sandbox time `now` (listing-state.ts `listingTerm`): what
 * a view shows as `created_at` and `expires_at`.
 * @example const term = termsAt(world, world.clock.now()); listingView(rec, 'en', base, term(rec))
 */
export function termsAt(world: World, now: number): (rec: Timed) => Term {
  const seedStart = seedStartOf(world.store.db.meta);
  return (rec) => listingTerm(rec, now, seedStart);
}

/**
 * A listing in the requested language, image paths made absolute, `created_at` and `expires_at`
 * those of its `term` (the contract's `Listing`). Read-only: `accepted_currencies` is the
 * record's own shared, frozen array (store/intern.ts).
 */
export function listingView(
  rec: ListingRecord,
  lang: string,
  base: string,
  term: Term,
): DeepReadonly<Schema<'Listing'>> {
  return {
    id: rec.id,
    title: listingTitle(rec, lang),
    description: listingDescription(rec, lang),
    type: rec.type,
    category: rec.category,
    price_cents: rec.price_cents,
    currency: rec.currency,
    accepted_currencies: rec.accepted_currencies,
    quantity_available: rec.quantity_available,
    duration: rec.duration,
    location_city: rec.location_city,
    location_country: rec.location_country,
    lat: rec.lat,
    lng: rec.lng,
    images: rec.images.map((path) => (path.startsWith('/') ? base + path : path)),
    is_featured: rec.is_featured,
    featured_payment_method: rec.featured_payment_method,
    store_slug: rec.store_slug,
    created_at: new Date(term.created).toISOString(),
    expires_at: new Date(term.expires).toISOString(),
  };
}

/**
 * Listing texts kept in the process, across every sandbox: about 0.6 KB a text, so at most about
 * 12 MB however many sandboxes run. Past it, whole tables are dropped, the one made longest ago
 * first (a world's table is made again after each of its writes).
 */
export const VIEW_TEXTS_KEPT = 20_000;

/** A listing's text, and what it was made for. */
interface Kept {
  lang: string;
  base: string;
  created: number;
  text: string;
}

/** Each world's table for its current store version, by listing id; made longest ago first. */
const tables = new Set<Map<string, Kept>>();
let kept = 0;

/** How many texts are kept now, in every table together. */
export const keptTexts = (): number => kept;

function drop(table: Map<string, Kept>): void {
  kept -= table.size;
  table.clear();
  tables.delete(table);
}

/** A world's table for a new store version: the one before is never asked for again. */
function newTable(previous: Map<string, Kept> | undefined): Map<string, Kept> {
  if (previous) drop(previous);
  const table = new Map<string, Kept>();
  tables.add(table);
  return table;
}

/** Drops whole tables, made longest ago first (`current` last), until one more text fits. */
function makeRoom(current: Map<string, Kept>): void {
  for (const table of [...tables, current]) {
    if (kept < VIEW_TEXTS_KEPT) break;
    drop(table);
  }
}

/**
 * `JSON.stringify(listingView(rec, lang, base, term))`, kept per world for one store version
 * (every write bumps it, so a changed quantity or featured flag is never served stale) and term
 * (a relisted listing's next round is a new text); one text a listing, for the language and base
 * URL asked for last. A listing shows up on many different search pages, which join these texts
 * instead of building and serializing the views again for every page (docs/hardening.md has the
 * figures). Looked up by the record's own id string, whose hash V8 keeps.
 */
export function listingJson(
  world: World,
  rec: ListingRecord,
  lang: string,
  base: string,
  term: Term,
): string {
  const table = perStoreVersion(world, 'listings.viewTexts', newTable);
  const found = table.get(rec.id);
  if (found !== undefined && found.created === term.created && found.lang === lang && found.base === base)
    return found.text;
  const text = JSON.stringify(listingView(rec, lang, base, term));
  if (found === undefined) {
    if (kept >= VIEW_TEXTS_KEPT) makeRoom(table);
    // A table dropped to make room is still its world's: it goes on, from empty, as the newest.
    if (!tables.has(table)) tables.add(table);
    kept += 1;
  }
  table.set(rec.id, { lang, base, created: term.created, text });
  return text;
}
