import type { AnyRequest } from '../../contract/handler.js';
import { activeScenario, providerOutcome } from '../../scenarios/query.js';
import type { Db } from '../../store/types.js';
import { approvePayment, cancelPayment } from './settle.js';

/**
 * True when the request must take the provider redirect whatever the balance (the
 * `wallet.insufficient` scenario). Checkout, subscribe and featuring by credit_wallet all ask here,
 * only when they would otherwise pay from the wallet, so the scenario is counted where it applies.
 */
export function forcesProvider(req: AnyRequest): boolean {
  return activeScenario(req, 'wallet.insufficient');
}

/**
 * The `provider.approve` / `provider.cancel` scenarios: a provider payment just created in this
 * mutation resolves by itself, as if the buyer had clicked on the provider page at once.
 * Called inside the same synchronous mutation that created the payment, so nobody sees it pending.
 */
export function settleByScenario(req: AnyRequest, db: Db, result: object, now: number): void {
  const paymentId = (result as { paymentId?: string }).paymentId;
  if (!paymentId) return;
  const outcome = providerOutcome(req);
  if (outcome === 'approve') approvePayment(db, paymentId, now);
  else if (outcome === 'cancel') cancelPayment(db, paymentId, now);
}

/**
 * Runs a payment-creating mutation (checkout, subscribe) and, in the same mutation, lets the
 * provider scenarios settle the payment it created; resolves once durable.
 */
export function commitPayment<T extends object>(
  req: AnyRequest,
  now: number,
  pay: (db: Db) => T,
): Promise<T> {
  return req.world.store.commit((db) => {
    const outcome = pay(db);
    settleByScenario(req, db, outcome, now);
    return outcome;
  });
}
