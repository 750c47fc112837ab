import type { Schema } from '../../http/contract.js';
import type { DeepReadonly } from '../../http/handler.js';
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
 * Listing texts kept in the process, across every sandbox: two generations of up to half this
 * many each (a text found in the older one moves to the newer; a full newer one becomes the older,
 * the older dropped). About 0.6 KB a text, so at most about 12 MB however many sandboxes run; the
 * listings that keep being found stay, where emptying one map when full dropped them all.
 */
export const VIEW_TEXTS_KEPT = 20_000;

let young = new Map<string, string>();
let old = new Map<string, string>();
let epochs = 0;

/**
 * `JSON.stringify(listingView(rec, lang, base, term))`, kept for one store version of the world
 * (every write bumps it, so a changed quantity or featured flag is never served stale; a text of
 * an earlier version is never found again and ages out) and term (a relisted listing's next round
 * is a new text). A listing shows up on many different search pages; the fast search path
 * (http/fast-search.ts) joins these texts instead of building and serializing the views again for
 * every page.
 */
export function listingJson(
  world: World,
  rec: ListingRecord,
  lang: string,
  base: string,
  term: Term,
): string {
  // A number for this world at this store version, never given to another world or version.
  const epoch = perStoreVersion(world, 'listings.viewTextsEpoch', () => (epochs += 1));
  const key = `${epoch} ${lang} ${base} ${rec.id} ${term.created}`;
  let text = young.get(key);
  if (text === undefined) {
    text = old.get(key) ?? JSON.stringify(listingView(rec, lang, base, term));
    if (young.size >= VIEW_TEXTS_KEPT / 2) {
      old = young;
      young = new Map();
    }
    young.set(key, text);
  }
  return text;
}
