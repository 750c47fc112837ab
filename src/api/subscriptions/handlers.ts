import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import type { Handlers } from '../../contract/handler.js';
import { commitPayment, forcesProvider } from '../payprovider/provider-scenarios.js';
import { baseUrl } from '../base-url.js';
import { ratesNow } from '../wallet/rates.js';
import { activeSubscription, currentFeatured, currentPlan, plans } from './plans.js';
import { subscribe } from './service.js';

export function subscriptionHandlers(_deps: AppDeps) {
  return {
    listPlans: (_req, res) => {
      res.json({ plans: plans() });
    },
    getMyPlan: (req, res) => {
      const user = userId(req);
      const { db } = req.world.store;
      const now = req.world.clock.now();
      const plan = currentPlan(db, user, now);
      const sub = activeSubscription(db, user, now);
      res.json({
        plan_name: plan.id,
        limits: { featuredListings: plan.limits.featuredListings },
        usage: { currentFeatured: currentFeatured(db, user, now) },
        billing_cycle: sub?.billing_cycle ?? null,
        started_at: sub?.started_at ?? null,
        expires_at: sub?.expires_at ?? null,
      });
    },
    subscribe: async (req, res) => {
      const world = req.world;
      const ctx = {
        userId: userId(req),
        now: world.clock.now(),
        rates: ratesNow(world),
        baseUrl: baseUrl(req),
        sandboxId: world.id,
        forceProvider: forcesProvider(req),
      };
      const result = await commitPayment(req, ctx.now, (db) => subscribe(db, req.body, ctx));
      res.json(result);
    },
  } satisfies Handlers;
}
