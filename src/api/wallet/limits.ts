import { ApiError } from '../../contract/errors.js';
import { formatUsd } from './convert.js';
import { strongestRate } from './rates.js';

/**
 * Bounds that keep every amount the sandbox adds up a safe integer (exact in a JavaScript number,
 * at most 2^53 − 1), whatever the exchange rate: the contract bounds each number a request sends
 * (openapi.yaml: `price_cents` ≤ 10^11, quantities ≤ 10,000, 100 cart lines, `shippingCostCents`
 * ≤ 10^8, a fund call ±10^9), and these bound what conversion and repetition could still grow.
 * A line is at most MAX_UNIT_USD_CENTS × 10,000 = 10^13 USD cents and an order at most
 * 100 lines of that plus shipping, about 10^15, far below 2^53 ≈ 9 × 10^15.
 */

/** What one unit of a listing may be worth, at its currency's strongest rate: 10,000,000.00 USD. */
export const MAX_UNIT_USD_CENTS = 1_000_000_000;

/** The most a wallet may hold: every balance and ledger sum stays exact. */
export const MAX_BALANCE_CENTS = Number.MAX_SAFE_INTEGER;

/** The most listings one cart may hold, as many as one checkout may buy. */
export const MAX_CART_LINES = 100;

/**
 * Why `priceCents` of `currency` is too dear for one unit, or null. Judged at the strongest rate
 * the currency's walk can reach (rates.ts), so no later rate window makes it dearer.
 * @example unitPriceProblem(100_000_000_000, 'BTC') // "… at most 10,000,000.00 USD (price_cents ≤ 10215 in BTC) …"
 */
export function unitPriceProblem(priceCents: number, currency: string): string | null {
  const rate = strongestRate(currency);
  if (rate === undefined) return null; // an unknown currency is refused elsewhere
  if (priceCents / rate <= MAX_UNIT_USD_CENTS) return null;
  const most = Math.floor(MAX_UNIT_USD_CENTS * rate);
  return (
    `one unit may be worth at most ${formatUsd(MAX_UNIT_USD_CENTS)} USD at any exchange rate ` +
    `(price_cents ≤ ${most} in ${currency}); ${priceCents} is worth up to ${formatUsd(Math.round(priceCents / rate))} USD`
  );
}

/** Refuses a balance the sandbox could not keep exact (409, saying the limit). */
export function checkBalance(balanceCents: number, whose: string): void {
  if (balanceCents <= MAX_BALANCE_CENTS) return;
  throw new ApiError(
    409,
    `${whose} would be ${formatUsd(balanceCents)} USD; a wallet may hold at most ${formatUsd(MAX_BALANCE_CENTS)} USD ` +
      `(${MAX_BALANCE_CENTS} cents)`,
  );
}
