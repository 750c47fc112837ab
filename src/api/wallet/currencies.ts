import { loadFixture } from '../../fixtures.js';

interface CurrencyFixture {
  fiat: { code: string; name: string; usd_rate: number }[];
  crypto: { code: string; name: string; usd_rate: number }[];
  wallet: { code: string; pairs_with: string }[];
}

interface CurrencyTable {
  /** canonical code → units per USD. */
  rates: Map<string, number>;
  /** upper-case code → canonical code (`CREDIT-USD` → `Credit-USD`). */
  canonical: Map<string, string>;
}

let table: CurrencyTable | undefined;

function currencyTable(): CurrencyTable {
  if (table) return table;
  const data = loadFixture<CurrencyFixture>('currencies.json');
  const rates = new Map<string, number>();
  for (const c of [...data.fiat, ...data.crypto]) rates.set(c.code, c.usd_rate);
  for (const w of data.wallet) {
    const rate = rates.get(w.pairs_with);
    if (rate !== undefined) rates.set(w.code, rate);
  }
  table = { rates, canonical: new Map([...rates.keys()].map((code) => [code.toUpperCase(), code])) };
  return table;
}

/**
 * The canonical spelling of a known currency code (fiat, crypto or `Credit-<code>`), matched
 * case-insensitively; undefined for an unknown code.
 * @example canonicalCurrency('credit-usd') // 'Credit-USD'
 */
export function canonicalCurrency(code: string): string | undefined {
  return currencyTable().canonical.get(code.toUpperCase());
}

/**
 * An amount in a currency's cents converted to USD cents at the fixture's reference rate
 * (`usd_rate` = units per USD; `Credit-<code>` uses its paired currency's rate), as the seeder
 * prices listings; a payment converts at the current window's rate (convert.ts `toUsdCents`).
 * @example referenceUsdCents(920, 'EUR') // 1000
 */
export function referenceUsdCents(cents: number, code: string): number {
  const rate = currencyTable().rates.get(code);
  return rate ? cents / rate : cents;
}
