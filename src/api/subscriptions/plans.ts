import { loadFixture } from '../../fixtures.js';
import type { Schema } from '../../contract/types.js';
import type { Db, SubscriptionRecord } from '../../store/types.js';
import { untracked } from '../../store/dirty-tracker.js';
import { isListingActive, seedStartOf } from '../listings/listing-state.js';

/** A plan as GET /api/shop/subscriptions/plans lists it: USD-cent prices per billing cycle, featured slots. */
export type Plan = Schema<'Plan'>;

export type BillingCycle = keyof Plan['price_cents'];

/** The plans of fixtures/plans.json: free, basic (3 featured), pro (10), business (50). */
export const plans = (): Plan[] => loadFixture<Plan[]>('plans.json');

export function findPlan(id: string): Plan | undefined {
  return plans().find((p) => p.id === id);
}

/** A cycle's length on the sandbox clock: 30 days monthly, 365 days yearly. */
export const CYCLE_MS: Record<BillingCycle, number> = {
  monthly: 30 * 86_400_000,
  yearly: 365 * 86_400_000,
};

/** The user's subscription while it runs; after `expires_at` the user is on the free plan. */
export function activeSubscription(db: Db, userId: string, now: number): SubscriptionRecord | undefined {
  const sub = db.subscriptions[userId];
  return sub && Date.parse(sub.expires_at) > now ? sub : undefined;
}

/** The plan in force for a user at `now` (free when none runs). */
export function currentPlan(db: Db, userId: string, now: number): Plan {
  const sub = activeSubscription(db, userId, now);
  return (sub && findPlan(sub.plan_id)) || findPlan('free')!;
}

/**
 * The user's featured listings that are still active: what counts against the plan's slots. A
 * read over every listing: inside a change it reads past the change tracking, so featuring one
 * listing records that listing in the change log, not the whole catalog.
 */
export function currentFeatured(db: Db, userId: string, now: number): number {
  let count = 0;
  const seedStart = seedStartOf(db.meta);
  for (const listing of Object.values(untracked(db).listings)) {
    if (listing.seller_id === userId && listing.is_featured && isListingActive(listing, now, seedStart))
      count += 1;
  }
  return count;
}
