import { describe, expect, it } from 'vitest';
import { ListingInterner } from './intern.js';
import type { ListingRecord } from './types.js';

const rec = (id: string, title: string): ListingRecord => ({
  id,
  seller_id: 's',
  store_slug: null,
  type: 'mall',
  title,
  description: null,
  category: 'electronics',
  price_cents: 100,
  currency: 'USD',
  accepted_currencies: ['USD', 'EUR'],
  quantity_available: 1,
  duration: '2weeks',
  location_city: null,
  location_country: null,
  lat: null,
  lng: null,
  images: [`/uploads/${'seed'}-${1}.png`],
  is_featured: false,
  featured_payment_method: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('ListingInterner', () => {
  it('shares equal values between records without changing them', () => {
    const interner = new ListingInterner();
    const a = interner.listing(rec('a', ['Red', 'Chair'].join(' ')));
    const b = interner.listing(rec('b', 'Red ' + 'Chair'));
    expect(b.title).toBe('Red Chair');
    expect(a.accepted_currencies).toBe(b.accepted_currencies);
    expect(a.images).toBe(b.images);
    expect(b.images).toEqual(['/uploads/seed-1.png']);
    expect(a.id).toBe('a');
  });

  it('freezes shared arrays, so a change in place fails instead of changing every listing', () => {
    const shared = new ListingInterner().listing(rec('a', 't'));
    // The type says readonly already; the cast plays the code that ignores it.
    expect(() => (shared.images as string[]).push('x')).toThrow(TypeError);
  });
});
