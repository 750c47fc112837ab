import type { Db } from '../store/types.js';

const moved = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** Moves each named time field of every record by `ms` (a null or absent field stays as it is). */
function moveAll<T extends object>(records: Iterable<T>, fields: (keyof T)[], ms: number): void {
  for (const rec of records) {
    const times = rec as Record<keyof T, unknown>;
    for (const field of fields) {
      const value = times[field];
      if (typeof value === 'string') times[field] = moved(value, ms);
    }
  }
}

/**
 * Moves a seeded database `ms` later in time, in place: its clock, its start and every instant
 * a seeder writes (accounts, keys, ledger, stores, listings, subscriptions). A seed built once at
 * a fixed instant and moved to the wall time is what a build at that time would give, without
 * paying for a build (hundreds of ms) at every reset or new sandbox. Collections a seed leaves
 * empty (orders, payments, carts, mail) are not looked at; test/seed/shift.test.ts checks that
 * no instant of a seed is left behind.
 */
export function shiftSeed(db: Db, ms: number): Db {
  if (ms === 0) return db;
  db.meta.clock = { ...db.meta.clock, now: moved(db.meta.clock.now, ms) };
  if (db.meta.seeded_at !== undefined) db.meta.seeded_at = moved(db.meta.seeded_at, ms);
  moveAll(Object.values(db.users), ['created_at'], ms);
  moveAll(Object.values(db.api_keys), ['created_at', 'revoked_at'], ms);
  moveAll(db.ledger, ['created_at'], ms);
  moveAll(Object.values(db.stores), ['created_at'], ms);
  moveAll(Object.values(db.listings), ['created_at'], ms);
  moveAll(Object.values(db.subscriptions), ['started_at', 'expires_at'], ms);
  return db;
}
