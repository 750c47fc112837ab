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

export function findUserByEmail(db: Db, email: string): UserRecord | undefined {
  const wanted = normalizeEmail(email);
  return Object.values(db.users).find((u) => u.email === wanted);
}
