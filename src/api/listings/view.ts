import type { Schema } from '../../contract/types.js';
import type { DeepReadonly } from '../../contract/handler.js';
import type { World } from '../../world/world.js';
import type { ListingRecord } from '../../store/types.js';
import { listingDescription, listingTitle } from '../../i18n/listing-text.js';
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
