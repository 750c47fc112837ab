import type { RequestHandler } from 'express';
import type { AppDeps } from './deps.js';
import type { OperationId } from '../contract/types.js';
import type { AllHandlers } from '../contract/handler.js';
import { apiKeyHandlers } from '../api/api-keys/handlers.js';
import { assistantHandlers } from '../api/assistant/handlers.js';
import { authHandlers } from '../api/auth/handlers.js';
import { cartHandlers } from '../api/cart/handlers.js';
import { categoryHandlers } from '../api/categories/handlers.js';
import { checkoutHandlers } from '../api/checkout/handlers.js';
import { listingHandlers } from '../api/listings/handlers.js';
import { localeHandlers } from '../api/locales/handlers.js';
import { orderHandlers } from '../api/orders/handlers.js';
import { storeHandlers } from '../api/stores/handlers.js';
import { subscriptionHandlers } from '../api/subscriptions/handlers.js';
import { uploadHandlers } from '../api/uploads/handlers.js';
import { walletHandlers } from '../api/wallet/handlers.js';
import { moneyControlHandlers } from '../control/money-handlers.js';
import { requestHandlers } from '../control/request-handlers.js';
import { sandboxHandlers } from '../control/sandbox-handlers.js';
import { sandboxesHandlers } from '../control/sandboxes-handlers.js';
import { scenarioHandlers } from '../control/scenario-handlers.js';
import { snapshotHandlers } from '../control/snapshot-handlers.js';

/**
 * Every operation's handler, by operationId: the public API's resources, then the control API.
 * `satisfies AllHandlers` makes a missing handler a compile error (and createApp checks the
 * operations openapi.yaml lists at start-up).
 */
export function allHandlers(deps: AppDeps) {
  return {
    ...authHandlers(deps),
    ...apiKeyHandlers(deps),
    ...listingHandlers(deps),
    ...categoryHandlers(deps),
    ...storeHandlers(deps),
    ...localeHandlers(deps),
    ...uploadHandlers(deps),
    ...assistantHandlers(deps),
    ...walletHandlers(deps),
    ...checkoutHandlers(deps),
    ...orderHandlers(deps),
    ...subscriptionHandlers(deps),
    ...cartHandlers(deps),
    ...sandboxHandlers(deps),
    ...sandboxesHandlers(deps),
    ...requestHandlers(deps),
    ...snapshotHandlers(deps),
    ...scenarioHandlers(deps),
    ...moneyControlHandlers(deps),
  } satisfies AllHandlers;
}

/**
 * The handler of an operationId read from openapi.yaml, as Express mounts it; undefined when there
 * is none. Express types every request alike; request validation, mounted before the handlers,
 * is what gives each request the shape its `Handler<K>` declares.
 */
export function handlerOf(handlers: AllHandlers, operationId: string): RequestHandler | undefined {
  if (!Object.hasOwn(handlers, operationId)) return undefined;
  return handlers[operationId as OperationId] as unknown as RequestHandler;
}
