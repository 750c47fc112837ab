import { createHash, randomBytes } from 'node:crypto';

/**
 * The n-th id of an id space, a hash shaped as a version-4 UUID. The seed's space is the seed
 * number itself, so the same seed gives the same ids.
 * @example uuidFor(42, 0) // always the same string for seed 42
 */
export function uuidFor(space: number | string, n: number): string {
  const hex = createHash('sha256').update(`${space}:${n}`).digest('hex');
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

interface IdMeta {
  meta: { seed: number; next_id: number; id_space?: string };
}

/**
 * Takes the next id of a world: `uuidFor(id space, counter)`, advancing the counter; both are kept
 * in the database, so ids go on counting across restarts. The seeders number in the seed's space
 * ({@link seedIdSpace}); the first id after the seed draws a space of 128 random bits. A reset,
 * `DELETE /__sandbox` and a snapshot restore start again without a space ({@link forgetIdSpace}),
 * so no id made after them repeats one handed out before, and a token or API key issued before
 * cannot name a record made after.
 */
export function newId(db: IdMeta): string {
  db.meta.id_space ??= randomBytes(16).toString('hex');
  const id = uuidFor(db.meta.id_space, db.meta.next_id);
  db.meta.next_id += 1;
  return id;
}

/** Makes the seeders' ids those of the seed (`uuidFor(seed, n)`): until {@link forgetIdSpace}. */
export function seedIdSpace(db: IdMeta): void {
  db.meta.id_space = String(db.meta.seed);
}

/**
 * Leaves the database without an id space, so the next id draws a new one: at the end of the
 * seed, and for a database put back from a snapshot (ids handed out after the snapshot was taken
 * were made in its space, with the counter values that follow it).
 */
export function forgetIdSpace(db: IdMeta): void {
  delete db.meta.id_space;
}
