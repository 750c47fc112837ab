import { loadFixture } from '../fixtures.js';
import { newId, seededHex } from '../world/ids.js';
import { hashPasswordSync } from '../api/auth/passwords.js';
import { sha256 } from '../api/auth/sha256.js';
import { referralCodeFor } from '../api/auth/users.js';
import { postLedger } from '../api/wallet/ledger.js';
import type { Reply, Schema } from '../contract/types.js';
import type { BillingCycle } from '../api/subscriptions/plans.js';
import type { SeedContext } from './context.js';

/**
 * A test account of fixtures/test-accounts.json: what GET /__sandbox/accounts lists (its
 * `balance_cents` the opening balance), and its short `key`, its store and its plan.
 */
export type TestAccount = Schema<'TestAccount'> & {
  key: string;
  store?: Reply<'getStore'>['store'];
  plan?: { plan_id: string; billing_cycle: BillingCycle; featured_in_use: number | 'all' };
};

export const testAccounts = (): TestAccount[] => loadFixture<TestAccount[]>('test-accounts.json');

/**
 * Seeds the documented test accounts (README.md, Test accounts): fixed e-mails, passwords and API keys,
 * wallet balances posted through the ledger, and a store for each seller. Plans and featured
 * listings of the subscribers are added by the subscription and catalog seeders.
 */
export function seedTestAccounts(ctx: SeedContext): void {
  const { db, seed } = ctx;
  const at = new Date(ctx.now - 30 * 86_400_000).toISOString();
  for (const account of testAccounts()) {
    const id = newId(db);
    const salt = Buffer.from(seededHex(seed, `salt:${account.email}`), 'hex');
    db.users[id] = {
      id,
      email: account.email,
      password_hash: hashPasswordSync(account.password, salt),
      full_name: account.fullName,
      referral_code: referralCodeFor(seed, account.email),
      referred_by: null,
      balance_cents: 0,
      created_at: at,
    };
    if (account.balance_cents > 0) {
      postLedger(db, {
        userId: id,
        amountCents: account.balance_cents,
        kind: 'seed',
        reference: null,
        description: 'Opening balance of a test account',
        at,
      });
    }
    const keyId = newId(db);
    db.api_keys[keyId] = {
      id: keyId,
      user_id: id,
      name: 'Pre-made test key',
      prefix: account.api_key.slice(0, 16),
      hash: sha256(account.api_key),
      created_at: at,
      revoked_at: null,
    };
    if (account.store) {
      db.stores[account.store.slug] = { ...account.store, owner_id: id, created_at: at };
    }
  }
}
