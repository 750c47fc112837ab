import { ApiError } from '../../contract/errors.js';
import { isCrypto, type RateTable } from './rates.js';

/**
 * The one conversion module. Every amount is integer cents (hundredths of the currency's unit,
 * for every currency, crypto included). Rounding rule, used everywhere: convert the whole amount
 * once, then round half up (away from zero for the non-negative amounts money uses) to an
 * integer number of cents. A checkout line is converted as one amount (unit price × quantity),
 * never unit by unit, so rounding happens once per line.
 */

/** Rounds half up to an integer: 12.5 → 13, 12.4999 → 12. Guards float noise such as 12.4999999999. */
export function roundCents(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

function rateOf(table: RateTable, currency: string): number {
  const rate = table.rates.get(currency);
  if (rate === undefined) throw new ApiError(400, `Unknown currency ${currency}`);
  return rate;
}

/**
 * `amountCents` of `currency` in USD cents at the table's rates.
 * @example toUsdCents(920, 'EUR', table) // 1000 when 1 USD = 0.92 EUR
 */
export function toUsdCents(amountCents: number, currency: string, table: RateTable): number {
  if (currency === 'USD' || currency === 'Credit-USD') return amountCents;
  return roundCents(amountCents / rateOf(table, currency));
}

/**
 * `usdCents` expressed in `currency` cents at the table's rates (same rounding).
 * @example fromUsdCents(1000, 'EUR', table) // 920 when 1 USD = 0.92 EUR
 */
export function fromUsdCents(usdCents: number, currency: string, table: RateTable): number {
  if (currency === 'USD' || currency === 'Credit-USD') return usdCents;
  return roundCents(usdCents * rateOf(table, currency));
}

/**
 * A USD-cent amount shown in `currency` for messages: 2 decimals for fiat, 8 for crypto (whose
 * cent is too coarse to show a small price). Display only; money always moves in USD cents.
 * @example displayAmount(2999, 'Credit-EUR', table) // "27.59 Credit-EUR"
 */
export function displayAmount(usdCents: number, currency: string, table: RateTable): string {
  const units = (usdCents / 100) * rateOf(table, currency);
  return `${units.toFixed(isCrypto(currency) ? 8 : 2)} ${currency}`;
}

/**
 * The platform fee on an amount: `bps` basis points, rounded half up to integer cents.
 * @example platformFeeCents(1010, 500) // 51 (50.5 rounds up)
 */
export function platformFeeCents(amountCents: number, bps: number): number {
  return roundCents((amountCents * bps) / 10_000);
}

/** `12.34` from 1234. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
