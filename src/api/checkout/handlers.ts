import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../http/auth.js';
import type { Handlers } from '../../http/handler.js';
import { commitPayment } from '../payprovider/scenario-outcome.js';
import { baseUrlOf } from '../orders/paginate.js';
import { ratesNow } from '../wallet/rates.js';
import { forcesProvider } from './scenario-hook.js';
import { checkout, type CheckoutInput } from './service.js';

export function checkoutHandlers(deps: AppDeps): Handlers {
  return {
    checkout: async (req, res) => {
      const world = req.world;
      const ctx = {
        buyerId: userId(req),
        now: world.clock.now(),
        rates: ratesNow(world),
        feeBps: deps.config.platformFeeBps,
        baseUrl: baseUrlOf(req),
        sandboxId: world.id,
        forceProvider: forcesProvider(req),
      };
      const result = await commitPayment(req, ctx.now, (db) => checkout(db, req.body as CheckoutInput, ctx));
      res.json(result);
    },
  };
}
