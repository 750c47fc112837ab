import { findUserByEmail } from '../../src/api/auth/users.js';
import { newId } from '../../src/world/ids.js';
import type { ListingRecord } from '../../src/store/types.js';
import { listingRecord } from '../helpers/records.js';
import { accounts, type TestSandbox } from '../helpers/sandbox.js';

/** `Authorization` header value for a test account's API key. */
export const keyOf = (who: keyof typeof accounts): string => `Bearer ${accounts[who].apiKey}`;

export function userIdOf(sb: TestSandbox, email: string): string {
  const user = findUserByEmail(sb.world.store.db, email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

export const balanceOf = (sb: TestSandbox, email: string): number =>
  findUserByEmail(sb.world.store.db, email)!.balance_cents;

/**
 * Puts a listing straight into the world, past the checks of POST /api/shop/listings (any price,
 * stock or date). Defaults: a 10.00 USD mall item of the seller test account, 5 in stock, 2 weeks.
 */
export function addListing(sb: TestSandbox, overrides: Partial<ListingRecord> = {}): ListingRecord {
  return sb.world.store.mutate((db) => {
    const id = newId(db);
    const listing = listingRecord(0, {
      id,
      seller_id: findUserByEmail(db, accounts.seller.email)!.id,
      store_slug: 'sandbox-seller',
      title: `Test item ${id.slice(0, 8)}`,
      category: 'electronics',
      price_cents: 1000,
      quantity_available: 5,
      duration: '2weeks',
      created_at: sb.world.clock.nowIso(),
      ...overrides,
    });
    db.listings[id] = listing;
    return listing;
  });
}

/** The ledger entries of a user sum to their balance (the ledger's invariant). */
export function ledgerSum(sb: TestSandbox, email: string): number {
  const id = userIdOf(sb, email);
  return sb.world.store.db.ledger.filter((e) => e.user_id === id).reduce((s, e) => s + e.amount_cents, 0);
}

/** Freezes the sandbox clock so amounts computed from rates cannot move mid-test. */
export async function freeze(sb: TestSandbox): Promise<void> {
  await sb.http.post('/__sandbox/clock').send({ freeze: true });
}
