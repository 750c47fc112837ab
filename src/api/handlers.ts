import type { RequestHandler } from 'express';
import type { AppDeps } from '../deps.js';
import { authHandlers } from './auth/handlers.js';
import { apiKeyHandlers } from './settings/handlers.js';
import { walletHandlers } from './wallet/handlers.js';
import { sandboxHandlers } from './sandbox/handlers.js';
import { cartHandlers } from './cart/handlers.js';
import { checkoutHandlers } from './checkout/handlers.js';
import { moneyControlHandlers } from './money-control/handlers.js';
import { orderHandlers } from './orders/handlers.js';
import { subscriptionHandlers } from './subscriptions/handlers.js';

export type Handlers = Record<string, RequestHandler>;

/** Every operation's handler, by operationId. Each resource folder contributes its own table. */
export function allHandlers(deps: AppDeps): Handlers {
  return {
    ...authHandlers(deps),
    ...apiKeyHandlers(deps),
    ...walletHandlers(deps),
    ...sandboxHandlers(deps),
    ...checkoutHandlers(deps),
    ...orderHandlers(deps),
    ...subscriptionHandlers(deps),
    ...cartHandlers(deps),
    ...moneyControlHandlers(deps),
  };
}
