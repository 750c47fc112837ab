import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import type { Handlers } from '../../contract/handler.js';
import { commitPayment, forcesProvider } from '../payprovider/provider-scenarios.js';
import { baseUrl } from '../base-url.js';
import { ratesNow } from '../wallet/rates.js';
import { checkout } from './service.js';

export function checkoutHandlers(deps: AppDeps) {
  return {
    checkout: async (req, res) => {
      const world = req.world;
      const ctx = {
        buyerId: userId(req),
        now: world.clock.now(),
        rates: ratesNow(world),
        feeBps: deps.config.platformFeeBps,
        baseUrl: baseUrl(req),
        sandboxId: world.id,
        forceProvider: forcesProvider(req),
      };
      const result = await commitPayment(req, ctx.now, (db) => checkout(db, req.body, ctx));
      res.json(result);
    },
  } satisfies Handlers;
}
