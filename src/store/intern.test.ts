import { describe, expect, it } from 'vitest';
import { ListingInterner } from './intern.js';
import type { ListingRecord } from './types.js';

const rec = (id: string, title: string): ListingRecord =>
  ({
    id,
    seller_id: 's',
    title,
    accepted_currencies: ['USD', 'EUR'],
    images: [`/uploads/${'seed'}-${1}.png`],
    created_at: '2026-01-01T00:00:00.000Z',
  }) as ListingRecord;

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
    expect(() => shared.images.push('x')).toThrow(TypeError);
  });
});
