import type { DbMeta, Duration, ListingRecord } from '../../store/types.js';

/** How long a listing stays active after `created_at`, on the sandbox clock. */
export const DURATION_MS: Record<Duration, number> = {
  '1day': 86_400_000,
  '2weeks': 14 * 86_400_000,
  '1year': 365 * 86_400_000,
};

/** What a listing's lifetime is read from. */
export type Timed = Pick<ListingRecord, 'created_at' | 'duration' | 'text_ref'>;

/** The lifetime a listing is in (ms since the epoch): listed from `created`, ended at `expires`. */
export interface Term {
  created: number;
  expires: number;
}

/**
 * When a world's seed starts (its clock's first instant, `meta.seeded_at`). A database written
 * before the field existed has none: -Infinity, so every seeded listing is relisted.
 */
export function seedStartOf(meta: Pick<DbMeta, 'seeded_at'>): number {
  return meta.seeded_at === undefined ? -Infinity : Date.parse(meta.seeded_at);
}

/** The term `created_at + duration` that a listing is created with. */
export function firstTerm(listing: Timed): Term {
  const created = Date.parse(listing.created_at);
  return { created, expires: created + DURATION_MS[listing.duration] };
}

/**
 * Whether a listing is relisted each time its term ends: a seeded one (the only listings with
 * `text_ref`) still listed when the seed starts, so the seeded catalogue keeps its size however
 * far the clock runs. A user's listing ends as its `duration` says; a seeded one that had ended
 * before the seed's start stays ended (the catalogue's past).
 */
export function relists(listing: Timed, seedStart: number): boolean {
  return listing.text_ref !== undefined && firstTerm(listing).expires > seedStart;
}

/**
 * The term a listing is in at `now`: its first one, or for a listing that {@link relists}, the
 * round of relisting holding `now` (each round starts where the last ended and lasts `duration`).
 * Computed, never written: no write storm as the clock runs, and every reader (search index,
 * single read, checkout, cart, featured slots) gets the same answer from this one function.
 * @example listingTerm({ created_at: '2026-01-01T00:00:00Z', duration: '1day', text_ref: 'x' }, Date.parse('2026-01-03T06:00:00Z'), 0) // 2026-01-03 → 2026-01-04
 */
export function listingTerm(listing: Timed, now: number, seedStart: number): Term {
  return termAt(firstTerm(listing), DURATION_MS[listing.duration], relists(listing, seedStart), now);
}

/**
 * {@link listingTerm} from what it is read from: the first term, the duration's length and
 * whether the listing relists (a search keeps these three per listing, not the dates as text).
 */
export function termAt(first: Term, length: number, relisting: boolean, now: number): Term {
  if (now < first.expires || !relisting) return first;
  const created = first.created + Math.floor((now - first.created) / length) * length;
  return { created, expires: created + length };
}

/**
 * Active = within its term at `now` on the sandbox clock. Stock is a separate check.
 * @example isListingActive({ created_at: '2026-01-01T00:00:00Z', duration: '1day' }, Date.parse('2026-01-01T12:00:00Z'), 0) // true
 */
export function isListingActive(listing: Timed, now: number, seedStart: number): boolean {
  return now < listingTerm(listing, now, seedStart).expires;
}
