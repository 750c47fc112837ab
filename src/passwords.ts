import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function format(salt: Buffer, hash: Buffer): string {
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** Synchronous hash with a given salt: used by the seed, which must be deterministic. */
export function hashPasswordSync(password: string, salt: Buffer): string {
  return format(salt, scryptSync(password, salt, KEY_LENGTH, PARAMS));
}

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, PARAMS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes off the event loop (libuv thread pool) with a random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return format(salt, await scryptAsync(password, salt));
}

let dummy: string | undefined;

/**
 * A valid hash of nothing anyone knows: login compares against it for unknown e-mails. Made on
 * first use, not at import, so start-up does not pay a synchronous scrypt.
 */
export function dummyHash(): string {
  dummy ??= hashPasswordSync(randomBytes(16).toString('hex'), randomBytes(16));
  return dummy;
}

/** Constant-time check; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const salt = Buffer.from(parts[4], 'hex');
  const expected = Buffer.from(parts[5], 'hex');
  const actual = await scryptAsync(password, salt);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
