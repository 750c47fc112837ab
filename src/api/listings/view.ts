import type { Schema } from '../../http/contract.js';
import type { DeepReadonly } from '../../http/handler.js';
import type { ListingRecord } from '../../store/types.js';
import { listingDescription, listingTitle } from '../../i18n/listing-text.js';
import { perStoreVersion, type World } from '../../world/world.js';
import { expiresAt } from './search-index.js';

/**
 * A listing in the requested language, image paths made absolute (the contract's `Listing`). Read-only:
 * `accepted_currencies` is the record's own shared, frozen array (store/intern.ts).
 */
export function listingView(rec: ListingRecord, lang: string, base: string): DeepReadonly<Schema<'Listing'>> {
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
    created_at: rec.created_at,
    expires_at: new Date(expiresAt(rec)).toISOString(),
  };
}

/** Listing texts kept per world (cleared when full): a few pages' worth for every popular search. */
export const VIEW_TEXTS_KEPT = 2_000;

/**
 * `JSON.stringify(listingView(rec, lang, base))`, kept per world for one store version (every
 * write bumps it, so a changed quantity or featured flag is never served stale). A listing shows
 * up on many different search pages; the fast search path (http/fast-search.ts) joins these texts
 * instead of building and serializing the views again for every page.
 */
export function listingJson(world: World, rec: ListingRecord, lang: string, base: string): string {
  const texts = perStoreVersion(world, 'listings.viewTexts', () => new Map<string, string>());
  const key = `${lang} ${base} ${rec.id}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = JSON.stringify(listingView(rec, lang, base));
    if (texts.size >= VIEW_TEXTS_KEPT) texts.clear();
    texts.set(key, text);
  }
  return text;
}
