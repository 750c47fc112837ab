import { createHash } from 'node:crypto';

/**
 * Deterministic UUIDs: the n-th id of a world is a hash of (seed, n), shaped as a version-4 UUID.
 * The counter lives in the database, so ids stay unique across restarts and the same seed gives
 * the same ids.
 * @example uuidFor(42, 0) // always the same string for seed 42
 */
export function uuidFor(seed: number, n: number): string {
  const hex = createHash('sha256').update(`${seed}:${n}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A hex token derived from the seed: for seeded secrets (API keys, salts) that must be stable. */
export function seededHex(seed: number, label: string, bytes = 16): string {
  return createHash('sha256')
    .update(`${seed}:${label}`)
    .digest('hex')
    .slice(0, bytes * 2);
}

/** Takes the next deterministic id of a world (advances the counter stored in its database). */
export function newId(db: { meta: { seed: number; next_id: number } }): string {
  const id = uuidFor(db.meta.seed, db.meta.next_id);
  db.meta.next_id += 1;
  return id;
}
