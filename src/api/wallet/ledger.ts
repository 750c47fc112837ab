import { newId } from '../../world/ids.js';
import type { Db, LedgerKind } from '../../store/types.js';

/**
 * The one way money moves: changes a user's balance and appends a ledger entry in the same
 * synchronous mutation, so the ledger always sums to the balance. Call it only after every
 * check has passed (it never refuses; an overdraft is the caller's bug and throws).
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

/** `12.34` from 1234. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
