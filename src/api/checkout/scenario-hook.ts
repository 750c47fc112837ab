import type { Request } from 'express';

/**
 * True when the request must take the provider redirect whatever the balance (the
 * `wallet.insufficient` scenario). Checkout, subscribe and featuring by credit_wallet all ask here;
 * the scenarios module (issue 5) wires its switch in at merge time. Until then: never.
 */
export function forcesProvider(_req: Request): boolean {
  return false;
}
