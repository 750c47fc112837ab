import type { Db, FeaturedPaymentMethod, ListingRecord } from '../../store/types.js';
import type { World } from '../../world.js';

/** What the create-listing call asked for, after validation. */
export interface FeaturedRequest {
  world: World;
  userId: string;
  /** The listing just created (stored unfeatured); the hook may change its featured fields. */
  listing: ListingRecord;
  method: FeaturedPaymentMethod;
  /** Base of absolute URLs (the provider page), e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Take the provider redirect whatever the balance (scenario `wallet.insufficient`). */
  forceProvider?: boolean;
}

/** The decision, merged into the 201 response. */
export interface FeaturedOutcome {
  is_featured: boolean;
  featured_payment_method: FeaturedPaymentMethod | null;
  /** Set when the featuring fee goes through the payment provider (redirect). */
  approvalUrl?: string;
  /** Cents taken from the wallet for featuring. */
  deducted?: number;
}

/**
 * The single place where a featuring request is decided. It runs inside the same synchronous
 * mutation that stores the listing, so it may check and charge atomically (throw an ApiError to
 * refuse: nothing is stored then). Charging belongs to the money module (issue 4), wired in
 * here at merge; until then the listing stays unfeatured. The wiring is one call:
 * `chargeFeatured(db, { userId, listingId: listing.id, method, now: world.clock.now(), baseUrl, forceProvider })`
 * from `../featured/service.js`, its outcome returned as is (approvalUrl / deducted included).
 */
export function applyFeaturedRequest(_db: Db, ctx: FeaturedRequest): FeaturedOutcome {
  return {
    is_featured: ctx.listing.is_featured,
    featured_payment_method: ctx.listing.featured_payment_method,
  };
}
