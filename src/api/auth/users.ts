import { untracked } from '../../store/dirty-tracker.js';
import type { Db, UserRecord } from '../../store/types.js';
import { seededHex } from '../../world/ids.js';

/** E-mail addresses are compared trimmed and in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user's referral code: stable per seed and e-mail. */
export function referralCodeFor(seed: number, email: string): string {
  return `REF-${seededHex(seed, `referral:${email}`, 4).toUpperCase()}`;
}

/** The user with this e-mail; inside a mutation, the record as `db` hands it out (so a change to it is tracked). */
export function findUserByEmail(db: Db, email: string): UserRecord | undefined {
  const wanted = normalizeEmail(email);
  // Searched without the tracking view: no proxy per user a mutation passes over.
  for (const [id, user] of Object.entries(untracked(db.users)))
    if (user.email === wanted) return db.users[id];
  return undefined;
}
