import { describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../src/api/auth/users.js';
import { buildSeed } from '../../src/seed/seed.js';
import { accounts } from '../helpers/sandbox.js';

const options = { seed: 42, listings: 0, clockStart: '2026-01-01T00:00:00.000Z' };

describe('seeded subscriptions', () => {
  it('puts subscriber on pro monthly and maxed on basic monthly, byte-identical per seed', () => {
    const db = buildSeed(options);
    const subscriber = findUserByEmail(db, accounts.subscriber.email)!;
    const maxed = findUserByEmail(db, accounts.maxed.email)!;
    expect(db.subscriptions[subscriber.id]).toEqual({
      user_id: subscriber.id,
      plan_id: 'pro',
      billing_cycle: 'monthly',
      started_at: '2025-12-31T00:00:00.000Z',
      expires_at: '2026-01-30T00:00:00.000Z',
    });
    expect(db.subscriptions[maxed.id]).toMatchObject({ plan_id: 'basic', billing_cycle: 'monthly' });
    expect(Object.keys(db.subscriptions)).toHaveLength(2);
    expect(JSON.stringify(buildSeed(options))).toBe(JSON.stringify(db));
  });

  it('posts every opening balance through the ledger', () => {
    const db = buildSeed(options);
    for (const user of Object.values(db.users)) {
      const sum = db.ledger.filter((e) => e.user_id === user.id).reduce((s, e) => s + e.amount_cents, 0);
      expect(sum, user.email).toBe(user.balance_cents);
    }
  });
});
