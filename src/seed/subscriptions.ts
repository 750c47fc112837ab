import { findUserByEmail } from '../api/auth/users.js';
import { CYCLE_MS } from '../api/subscriptions/plans.js';
import { testAccounts } from './accounts.js';
import type { SeedContext } from './context.js';

/** Seeded plans start a day before the sandbox clock, so they run for the rest of their cycle. */
const STARTED_BEFORE_MS = 86_400_000;

/**
 * Gives the subscriber test accounts their plans (fixtures/test-accounts.json `plan`): subscriber
 * on pro monthly, maxed on basic monthly. Their featured listings come from the catalog seeder.
 */
export function seedTestSubscriptions(ctx: SeedContext): void {
  const started = ctx.now - STARTED_BEFORE_MS;
  for (const account of testAccounts()) {
    if (!account.plan) continue;
    const user = findUserByEmail(ctx.db, account.email);
    if (!user) continue;
    ctx.db.subscriptions[user.id] = {
      user_id: user.id,
      plan_id: account.plan.plan_id,
      billing_cycle: account.plan.billing_cycle,
      started_at: new Date(started).toISOString(),
      expires_at: new Date(started + CYCLE_MS[account.plan.billing_cycle]).toISOString(),
    };
  }
}
