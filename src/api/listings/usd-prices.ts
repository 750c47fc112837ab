import { roundCents } from '../wallet/convert.js';
import type { RateTable } from '../wallet/rates.js';
import type { Columns } from './columns.js';

/**
 * Fills the `usd` column of positions `from`…`count` (exclusive): each price converted to USD cents
 * at the table's rates, rounded as every conversion is (wallet/convert.ts). `currencies` maps the
 * column's currency codes back to currency codes; an unknown one counts as USD.
 */
export function fillUsd(
  cols: Columns,
  from: number,
  count: number,
  currencies: Map<string, number>,
  rates: RateTable,
): void {
  const rateOf = new Float64Array(currencies.size + 1).fill(1);
  for (const [code, n] of currencies) {
    const usdLike = code === 'USD' || code === 'Credit-USD';
    rateOf[n] = usdLike ? 1 : (rates.rates.get(code) ?? 1);
  }
  const { price, usd, currency } = cols;
  for (let i = from; i < count; i += 1) {
    const rate = rateOf[currency[i]];
    usd[i] = rate === 1 ? price[i] : roundCents(price[i] / rate);
  }
}

/**
 * The positions ordered by USD price (ascending, or descending), ties by their place in the
 * newest order: the same order the comparator gives, made by sorting one number per position
 * (`price × n + newest place`, exact while below 2^53) instead of calling a comparator n log n
 * times; a new rate window re-sorts both price orders, at 100k listings in milliseconds.
 * Returns undefined when the keys would not be exact (prices beyond any real listing's).
 */
export function priceOrder(
  cols: Columns,
  newestRank: Int32Array,
  newest: number[],
  descending: boolean,
): number[] | undefined {
  const n = newest.length;
  const { usd } = cols;
  let top = 0;
  for (let i = 0; i < n; i += 1) top = Math.max(top, usd[i]);
  if ((top + 1) * Math.max(n, 1) >= Number.MAX_SAFE_INTEGER) return undefined;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = (descending ? top - usd[i] : usd[i]) * n + newestRank[i];
  keys.sort();
  const order = new Array<number>(n);
  for (let k = 0; k < n; k += 1) order[k] = newest[keys[k] % n];
  return order;
}
