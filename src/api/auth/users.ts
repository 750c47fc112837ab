import type { Db, UserRecord } from '../../store/types.js';

/** E-mail addresses are compared trimmed and in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(db: Db, email: string): UserRecord | undefined {
  const wanted = normalizeEmail(email);
  return Object.values(db.users).find((u) => u.email === wanted);
}
