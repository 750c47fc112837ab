import { createHash } from 'node:crypto';
import { loadFixture } from '../../fixtures.js';
import { extra, type World } from '../../world/world.js';

/** Rates refresh every 30 minutes of sandbox time (openapi.yaml `getExchangeRates`; docs/money.md, Exchange rates). */
export const RATE_WINDOW_MS = 30 * 60_000;

interface CurrencyFixture {
  fiat: { code: string; name: string; usd_rate: number }[];
  crypto: { code: string; name: string; usd_rate: number }[];
  wallet: { code: string; pairs_with: string }[];
}

export const currencyFixture = (): CurrencyFixture => loadFixture<CurrencyFixture>('currencies.json');

let baseCache: Map<string, number> | undefined;

/** Units of each base (fiat or crypto) currency per 1 USD, from fixtures/currencies.json (static data). */
function baseRates(): Map<string, number> {
  const fx = currencyFixture();
  baseCache ??= new Map([...fx.fiat, ...fx.crypto].map((c) => [c.code, c.usd_rate]));
  return baseCache;
}

/** `Credit-EUR` → `EUR`; a base code maps to itself; unknown codes give undefined. */
export function baseCodeOf(code: string): string | undefined {
  const fx = currencyFixture();
  const wallet = fx.wallet.find((w) => w.code === code);
  if (wallet) return wallet.pairs_with;
  return baseRates().has(code) ? code : undefined;
}

/** True for crypto codes and their `Credit-` pairs (shown with 8 decimals instead of 2). */
export function isCrypto(code: string): boolean {
  const base = baseCodeOf(code);
  return currencyFixture().crypto.some((c) => c.code === base);
}

/** Start (ms) of the 30-minute window holding `now`. */
export function windowStart(now: number): number {
  return Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}

/** A uniform number in [-1, 1) from (seed, code, octave, knot): the walk's seeded randomness. */
function noise(seed: number, code: string, octave: number, knot: number): number {
  const hex = createHash('sha256').update(`${seed}:rate:${code}:${octave}:${knot}`).digest('hex');
  return (parseInt(hex.slice(0, 12), 16) / 2 ** 48) * 2 - 1;
}

/** Octaves of the walk: knots every 1, 2, 4 … 1024 windows. Each adds at most ±AMPLITUDE. */
const OCTAVES = 11;
const AMPLITUDE = 0.0025;
/** The walk never strays further than this from a currency's fixture rate (log scale). */
export const MAX_WALK_DEVIATION = OCTAVES * AMPLITUDE;

/**
 * The fewest units of `code` per USD any window can give (its strongest rate), rounded down a
 * little further for the rates' 8 significant digits; undefined for an unknown code.
 */
export function strongestRate(code: string): number | undefined {
  const base = baseCodeOf(code);
  if (base === undefined) return undefined;
  if (base === 'USD') return 1;
  return (baseRates().get(base) as number) * Math.exp(-MAX_WALK_DEVIATION) * (1 - 1e-7);
}

/**
 * The log-deviation of a currency from its fixture rate in window `w`: a sum of seeded value
 * noise at doubling scales, linearly interpolated between knots. Consecutive windows differ by a
 * small step (a random walk), the deviation stays within ±2.75 %, and any window is computed in
 * O(octaves) whatever the clock says (no replay from the seed's start).
 */
export function walkDeviation(seed: number, code: string, w: number): number {
  let sum = 0;
  for (let k = 0; k < OCTAVES; k++) {
    const span = 2 ** k;
    const knot = Math.floor(w / span);
    const t = (w - knot * span) / span;
    const a = noise(seed, code, k, knot);
    const b = noise(seed, code, k, knot + 1);
    sum += AMPLITUDE * (a + (b - a) * t);
  }
  return sum;
}

/** Rates of one window: units of each code per 1 USD. USD (and Credit-USD) is always exactly 1. */
export interface RateTable {
  updatedAt: string;
  rates: Map<string, number>;
}

/** Builds the table for one window: every base code, then each `Credit-<code>` at its pair's rate. */
export function computeRates(seed: number, now: number): RateTable {
  const start = windowStart(now);
  const w = start / RATE_WINDOW_MS;
  const rates = new Map<string, number>();
  for (const [code, usdRate] of baseRates()) {
    const rate = code === 'USD' ? 1 : usdRate * Math.exp(walkDeviation(seed, code, w));
    rates.set(code, Number(rate.toPrecision(8)));
  }
  for (const wallet of currencyFixture().wallet) rates.set(wallet.code, rates.get(wallet.pairs_with)!);
  return { updatedAt: new Date(start).toISOString(), rates };
}

/**
 * The world's rates at its current sandbox time (cached per window). `now` may be given to read
 * another window (a `rates.stale` scenario can pass an earlier instant).
 */
export function ratesNow(world: World, now: number = world.clock.now()): RateTable {
  const cache = extra(world, 'money.rates', () => new Map<number, RateTable>());
  const start = windowStart(now);
  let table = cache.get(start);
  if (!table) {
    if (cache.size > 64) cache.clear();
    table = computeRates(world.seedOptions.seed, now);
    cache.set(start, table);
  }
  return table;
}
