import { chargeFeatured } from '../featured/service.js';
import type { Db, FeaturedPaymentMethod, ListingRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';

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
  /** The provider payment that features the listing once approved. */
  paymentId?: string;
}

/**
 * The single place where a featuring request is decided. It runs inside the same synchronous
 * mutation that stores the listing, so it checks and charges atomically (an ApiError refuses the
 * whole call: nothing is stored then). The charging rules live in the money module
 * (`chargeFeatured`: subscription slot, wallet, or provider redirect).
 */
export function applyFeaturedRequest(db: Db, ctx: FeaturedRequest): FeaturedOutcome {
  return chargeFeatured(db, {
    userId: ctx.userId,
    listingId: ctx.listing.id,
    method: ctx.method,
    now: ctx.world.clock.now(),
    baseUrl: ctx.baseUrl,
    sandboxId: ctx.world.id,
    forceProvider: ctx.forceProvider,
  });
}
