import { ApiError } from '../../contract/errors.js';
import type { Db, FeaturedPaymentMethod } from '../../store/types.js';
import { approvalUrl, createPayment } from '../payprovider/service.js';
import { postLedger } from '../wallet/ledger.js';
import { currentFeatured, currentPlan } from '../subscriptions/plans.js';

/** The price of featuring one listing: 1.00 USD (1 Credit-USD); docs/money.md, Featured listings. */
export const FEATURED_PRICE_CENTS = 100;

export interface FeaturedRequest {
  userId: string;
  /** The listing's id. It need not be in the store yet: nothing reads it until a payment is approved. */
  listingId: string;
  method: FeaturedPaymentMethod;
  now: number;
  /** Base of the absolute approvalUrl, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The sandbox the call was made in (the approval URL names it). */
  sandboxId: string;
  /** Take the provider redirect whatever the balance (scenario `wallet.insufficient`). */
  forceProvider?: boolean;
}

/** What to store on the listing, plus the payment outcome to answer with. */
export interface FeaturedOutcome {
  is_featured: boolean;
  featured_payment_method: FeaturedPaymentMethod | null;
  /** Cents taken from the wallet (credit_wallet paid at once). */
  deducted?: number;
  /** Set when the listing waits for a provider payment; approval features it. */
  approvalUrl?: string;
  paymentId?: string;
}

/** A listing becomes featured (called when its payment is approved; a vanished listing is skipped). */
export function featureListing(db: Db, listingId: string, method: FeaturedPaymentMethod): void {
  const listing = db.listings[listingId];
  if (!listing) return;
  listing.is_featured = true;
  listing.featured_payment_method = method;
}

function checkSlots(db: Db, userId: string, now: number): void {
  const plan = currentPlan(db, userId, now);
  const used = currentFeatured(db, userId, now);
  const limit = plan.limits.featuredListings;
  if (limit === 0)
    throw new ApiError(
      403,
      `Your ${plan.name} plan has no featured listing slots; subscribe to a plan or pay with credit_wallet or payprovider`,
    );
  if (used >= limit)
    throw new ApiError(
      403,
      `All ${limit} featured listing slots of your ${plan.name} plan are in use; pay with credit_wallet or payprovider, or upgrade`,
    );
}

/**
 * Throws the refusal featuring would end in (an unknown user; by subscription, no free slot),
 * changing nothing: a caller checks before it allocates the listing's id, so a refusal leaves no trace.
 */
export function checkFeaturing(db: Db, req: Pick<FeaturedRequest, 'userId' | 'method' | 'now'>): void {
  if (!db.users[req.userId]) throw new ApiError(404, `User not found: ${req.userId}`);
  if (req.method === 'subscription') checkSlots(db, req.userId, req.now);
}

function byProvider(db: Db, req: FeaturedRequest): FeaturedOutcome {
  const payment = createPayment(db, {
    kind: 'featured',
    userId: req.userId,
    amountCents: FEATURED_PRICE_CENTS,
    reference: req.listingId,
    description: `Featured placement of listing ${req.listingId}`,
    now: req.now,
  });
  return {
    is_featured: false,
    featured_payment_method: null,
    approvalUrl: approvalUrl(req.baseUrl, payment.id, req.sandboxId),
    paymentId: payment.id,
  };
}

/**
 * Charges for featuring a listing (openapi.yaml `createListing`; docs/money.md, Featured listings). subscription:
 * a free slot while usage < the plan's limit, else 403; credit_wallet: 100 cents from the wallet,
 * or a provider payment when the balance is short; payprovider: always a provider payment. Throws
 * before changing anything, so a caller can run it inside its own mutation before storing the listing.
 */
export function chargeFeatured(db: Db, req: FeaturedRequest): FeaturedOutcome {
  checkFeaturing(db, req);
  if (req.method === 'subscription') return { is_featured: true, featured_payment_method: 'subscription' };
  const walletCovers = !req.forceProvider && db.users[req.userId].balance_cents >= FEATURED_PRICE_CENTS;
  if (req.method === 'credit_wallet' && walletCovers) {
    postLedger(db, {
      userId: req.userId,
      amountCents: -FEATURED_PRICE_CENTS,
      kind: 'featured',
      reference: req.listingId,
      description: `Featured placement of listing ${req.listingId}`,
      at: new Date(req.now).toISOString(),
    });
    return { is_featured: true, featured_payment_method: 'credit_wallet', deducted: FEATURED_PRICE_CENTS };
  }
  return byProvider(db, req);
}
