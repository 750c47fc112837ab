import { describe, expect, it } from 'vitest';
import { checkout } from '../../src/api/checkout/service.js';
import { chargeFeatured } from '../../src/api/featured/service.js';
import { subscribe } from '../../src/api/subscriptions/service.js';
import { ratesNow } from '../../src/api/wallet/rates.js';
import { accounts, makeSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf, userIdOf } from './helpers.js';

// The hook the `wallet.insufficient` scenario uses: the provider redirect whatever the balance.
describe('forceProvider (scenario hook) in the domain functions', () => {
  it('sends a funded checkout, subscription and featuring to the provider', async () => {
    const sb = await makeSandbox();
    const buyer = userIdOf(sb, accounts.buyer.email);
    const listing = addListing(sb);
    const base = {
      now: sb.world.clock.now(),
      rates: ratesNow(sb.world),
      baseUrl: 'http://x',
      sandboxId: 'default',
      forceProvider: true,
    };
    const results = sb.world.store.mutate((db) => [
      checkout(
        db,
        { cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup' },
        {
          ...base,
          buyerId: buyer,
          feeBps: 500,
        },
      ),
      subscribe(db, { planId: 'pro', billingCycle: 'monthly' }, { ...base, userId: buyer }),
      chargeFeatured(db, { userId: buyer, listingId: listing.id, method: 'credit_wallet', ...base }),
    ]);
    expect(results.map((r) => ('approvalUrl' in r ? r.approvalUrl : undefined))).toEqual([
      expect.stringMatching(/^http:\/\/x\/sandbox\/payprovider\//),
      expect.stringMatching(/^http:\/\/x\/sandbox\/payprovider\//),
      expect.stringMatching(/^http:\/\/x\/sandbox\/payprovider\//),
    ]);
    expect(balanceOf(sb, accounts.buyer.email)).toBe(100000);
  });
});
