import type { ListingType } from '../store/types.js';
import { baseCodeOf, currencyFixture, isCrypto, type RateTable } from '../api/wallet/rates.js';
import type { Draw } from './catalog-data.js';

/** Where a listing's city is, it is priced in the local money; elsewhere in US dollars. */
const LOCAL_CURRENCY: Record<string, string> = {
  AT: 'EUR',
  BE: 'EUR',
  DE: 'EUR',
  ES: 'EUR',
  FR: 'EUR',
  IE: 'EUR',
  IT: 'EUR',
  LU: 'EUR',
  NL: 'EUR',
  PT: 'EUR',
  GB: 'GBP',
  JP: 'JPY',
};
/** Currencies whose smallest price is one unit (no cents): whole yen. */
const WHOLE_UNITS = new Set(['JPY']);
/** A BTC price has two significant digits in BTC cents, so it is at least 0.10 BTC (about 9,500 USD). */
const BTC_LEAST_CENTS = 10;

/** Units of each currency per USD at the fixture's reference rates (fixed, whatever the seed). */
export function referenceRates(): RateTable {
  const fx = currencyFixture();
  const rates = new Map([...fx.fiat, ...fx.crypto].map((c) => [c.code, c.usd_rate]));
  for (const w of fx.wallet) rates.set(w.code, rates.get(w.pairs_with) ?? 1);
  return { updatedAt: '', rates };
}

/** `value` to two significant digits: 4,873 → 4,900 (exact for values of 10 and more). */
function twoDigits(value: number): number {
  const step = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / step) * step;
}

/** How a currency is priced: in cents, in whole units, or (crypto) to significant digits of its cent. */
type Pricing = 'cents' | 'whole' | 'crypto';
const pricings = new Map<string, Pricing>();

function pricingOf(currency: string): Pricing {
  let found = pricings.get(currency);
  if (found === undefined) {
    found = isCrypto(currency)
      ? 'crypto'
      : WHOLE_UNITS.has(baseCodeOf(currency) ?? currency)
        ? 'whole'
        : 'cents';
    pricings.set(currency, found);
  }
  return found;
}

/**
 * A price as the currency is priced, in its cents: two significant digits (what a person asks:
 * 45, 120, 4,500), and a shop's (`mall`) x.99 below 1,000; whole yen (a shop's ¥4,980); BTC to
 * two significant digits of a BTC cent. Only 0 is free.
 * @example displayCents(47.3, 'EUR', 'mall', rates) // 4399 at 0.92 EUR per USD (43.99 EUR)
 */
export function displayCents(usd: number, currency: string, type: ListingType, rates: RateTable): number {
  if (usd <= 0) return 0;
  const units = usd * (rates.rates.get(currency) ?? 1);
  const shop = type === 'mall';
  const pricing = pricingOf(currency);
  if (pricing === 'crypto')
    return units * 100 < 10 ? Math.max(1, Math.round(units * 100)) : twoDigits(units * 100);
  if (pricing === 'whole') {
    const whole = units < 10 ? Math.max(1, Math.round(units)) : twoDigits(units);
    return (shop && whole >= 1000 ? whole - 20 : whole) * 100;
  }
  if (units >= 10) {
    const whole = twoDigits(units);
    return Math.round((shop && whole < 1000 ? whole - 0.01 : whole) * 100);
  }
  const halves = Math.max(0.5, Math.round(units * 2) / 2);
  return Math.round((shop ? halves - 0.01 : halves) * 100);
}

/** Whether BTC can show this USD price with its sensible digits. */
const btcCan = (usd: number, rates: RateTable): boolean =>
  usd * (rates.rates.get('BTC') ?? 0) * 100 >= BTC_LEAST_CENTS;

/**
 * The display currency of a listing in `country`: mostly the local one, sometimes its wallet
 * credit (`Credit-EUR`) or US dollars; a dear item now and then in BTC.
 */
export function drawCurrency(d: Draw, country: string, usd: number, rates: RateTable): string {
  const local = LOCAL_CURRENCY[country] ?? 'USD';
  const r = d.rand();
  if (r < 0.06 && btcCan(usd, rates)) return 'BTC';
  if (r < 0.85) return local;
  if (r < 0.95 && (local === 'USD' || local === 'EUR')) return `Credit-${local}`;
  return 'USD';
}

/** What a buyer may pay with: the display currency, and US dollars or their credit beside it. */
export function acceptedFor(currency: string, r: number): string[] {
  if (currency === 'USD')
    return r < 0.6 ? ['USD'] : r < 0.9 ? ['USD', 'Credit-USD'] : ['USD', 'EUR', 'Credit-USD'];
  return [currency, 'USD'];
}

/**
 * A price in USD within the template's range: log-uniform (as many cheap as dear listings in a
 * range spanning several times), uniform when the range starts at 0.
 */
export function drawUsd(d: Draw, [lo, hi]: [number, number]): number {
  if (hi <= 0) return 0;
  if (lo <= 0) return d.rand() * hi;
  return Math.exp(Math.log(lo) + d.rand() * (Math.log(hi) - Math.log(lo)));
}
