import { expect } from 'vitest';
import type { Api } from './client.js';

/** A listing as the search (4.5) and the single read (4.6) return it; the fields the tests use. */
export interface Listing {
  id: string;
  title: string;
  description?: string;
  type: string;
  category: string;
  price_cents: number;
  currency: string;
  accepted_currencies: string[];
  quantity_available: number;
  location_city: string;
  is_featured: boolean;
  created_at: string;
  [field: string]: unknown;
}

export interface Search {
  listings: Listing[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

/**
 * A seeded mall listing a buyer can buy twice: priced in `currency` between 1 and 50 (dollars when
 * USD), with at least 2 in stock, found through the public search as a client would find one.
 */
export async function buyableListing(api: Api, currency = 'USD'): Promise<Listing> {
  const query: Record<string, string | number> = { type: 'mall', currency, limit: 50 };
  if (currency === 'USD') Object.assign(query, { minPrice: 1, maxPrice: 50 });
  const res = await api.get<Search>('/api/shop/listings', { query });
  expect(res.status, res.text).toBe(200);
  const found = res.body.listings.find((l) => l.quantity_available >= 2 && l.price_cents > 0);
  if (!found) throw new Error(`no buyable ${currency} listing in the seed`);
  return found;
}

/** A checkout body with the values 4.14 gives: shipping, credit_wallet, shipping cost in USD cents. */
export function checkoutBody(listingId: string, quantity = 1, shippingCostCents = 500) {
  return {
    cartItems: [{ listing_id: listingId, quantity }],
    shippingAddress: { street: '1 Main St', city: 'Berlin', zip: '10115' },
    deliveryMethod: 'shipping',
    paymentMethod: 'credit_wallet',
    shippingCostCents,
  };
}

/** Creates a listing (4.9) with the required fields plus `extra`; returns the reply. */
export function createListing(api: Api, token: string, extra: Record<string, unknown> = {}) {
  return api.post<Listing>(
    '/api/shop/listings',
    { type: 'mall', title: 'Conformance lamp', category: 'home-garden', price_cents: 1500, ...extra },
    { token },
  );
}

/** A 1×1 PNG, for uploads (4.10). */
export const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
