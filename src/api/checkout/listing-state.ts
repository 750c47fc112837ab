import type { Duration, ListingRecord } from '../../store/types.js';

/** How long a listing stays active after `created_at`, on the sandbox clock. */
export const DURATION_MS: Record<Duration, number> = {
  '1day': 86_400_000,
  '2weeks': 14 * 86_400_000,
  '1year': 365 * 86_400_000,
};

/** When the listing stops being active (ms since the epoch). */
export function listingExpiresAt(listing: Pick<ListingRecord, 'created_at' | 'duration'>): number {
  return Date.parse(listing.created_at) + DURATION_MS[listing.duration];
}

/**
 * Active = not past `created_at + duration` on the sandbox clock. Stock is a separate check.
 * @example isListingActive({ created_at: '2026-01-01T00:00:00Z', duration: '1day' }, Date.parse('2026-01-01T12:00:00Z')) // true
 */
export function isListingActive(
  listing: Pick<ListingRecord, 'created_at' | 'duration'>,
  now: number,
): boolean {
  return now < listingExpiresAt(listing);
}
