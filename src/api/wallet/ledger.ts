import { newId } from '../../world/ids.js';
import type { Db, LedgerKind } from '../../store/types.js';
import { checkBalance } from './limits.js';

/**
 * The one way money moves: changes a user's balance and appends a ledger entry in the same
 * synchronous mutation, so the ledger always sums to the balance. Call it only after every
 * check has passed: an overdraft is the caller's bug and throws; a balance past what the sandbox
 * keeps exact (limits.ts) is a 409, and the store takes the whole mutation back.
 */
export function postLedger(
  db: Db,
  entry: {
    userId: string;
    amountCents: number;
    kind: LedgerKind;
    reference: string | null;
    description: string;
    at: string;
  },
): void {
  const user = db.users[entry.userId];
  if (!user) throw new Error(`postLedger: unknown user ${entry.userId}`);
  const balance = user.balance_cents + entry.amountCents;
  checkBalance(balance, `The balance of ${user.email}`);
  if (!Number.isSafeInteger(balance) || balance < 0)
    throw new Error(`postLedger: balance would be ${balance}`);
  user.balance_cents = balance;
  db.ledger.push({
    id: newId(db),
    user_id: user.id,
    amount_cents: entry.amountCents,
    balance_after_cents: balance,
    kind: entry.kind,
    reference: entry.reference,
    description: entry.description,
    created_at: entry.at,
  });
}

export { formatUsd } from './convert.js';
