import type { ListingRecord } from '../../src/store/types.js';

/**
 * A plain listing record `l<n>` for tests (store, views, search, money): a mall item of 1 in
 * stock at `n` US cents, no place and no images, created 2026-01-01; `fields` replace any of it.
 */
export function listingRecord(n: number, fields: Partial<ListingRecord> = {}): ListingRecord {
  return {
    id: `l${n}`,
    seller_id: 'seller',
    store_slug: null,
    type: 'mall',
    title: `Title ${n}`,
    description: null,
    category: 'decor',
    price_cents: n,
    currency: 'USD',
    accepted_currencies: ['USD'],
    quantity_available: 1,
    duration: '1year',
    location_city: null,
    location_country: null,
    lat: null,
    lng: null,
    images: [],
    is_featured: false,
    featured_payment_method: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}
