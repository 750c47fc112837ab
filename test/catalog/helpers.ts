import { isListingActive, seedStartOf } from '../../src/api/listings/listing-state.js';
import { toUsdCents } from '../../src/api/wallet/convert.js';
import { ratesNow } from '../../src/api/wallet/rates.js';
import type { ListingRecord } from '../../src/store/types.js';
import type { TestSandbox } from '../helpers/sandbox.js';

/** Freezes the sandbox clock so expiry is stable during a test. */
export async function freeze(sb: TestSandbox): Promise<number> {
  const res = await sb.http.post('/__sandbox/clock').send({ freeze: true });
  return Date.parse(res.body.now as string);
}

/** The seeded listings the search should show at `now`: active (listing-state.ts) and not sold out. */
export function listed(sb: TestSandbox, now: number): ListingRecord[] {
  const { db } = sb.world.store;
  return Object.values(db.listings).filter(
    (l) => isListingActive(l, now, seedStartOf(db.meta)) && l.quantity_available > 0,
  );
}

/** A tiny valid PNG (1×1). */
export const PNG_1X1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2b8a0a90000000049454e44ae426082',
  'hex',
);

/** A listing's price in USD cents at the sandbox's current rate window (what minPrice, maxPrice and the price sorts use). */
export function usdOf(sb: TestSandbox): (l: Pick<ListingRecord, 'price_cents' | 'currency'>) => number {
  const rates = ratesNow(sb.world);
  return (l) => toUsdCents(l.price_cents, l.currency, rates);
}
