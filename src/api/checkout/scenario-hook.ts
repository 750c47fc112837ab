import type { AnyRequest } from '../../http/handler.js';
import { activeScenario } from '../../scenarios/query.js';

/**
 * True when the request must take the provider redirect whatever the balance (the
 * `wallet.insufficient` scenario). Checkout, subscribe and featuring by credit_wallet all ask here,
 * only when they would otherwise pay from the wallet, so the scenario is counted where it applies.
 */
export function forcesProvider(req: AnyRequest): boolean {
  return activeScenario(req, 'wallet.insufficient');
}
