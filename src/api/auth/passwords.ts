import {
  randomBytes,
  scrypt,
  scryptSync,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { promisify } from 'node:util';

/**
 * The cost of new hashes (docs/security.md, T20): scrypt at N=256, r=8, p=1, about 0.35 ms and
 * 256 KB per hash on the 2-core build machine, so one thread verifies some 2,800 passwords a
 * second and login is not the bottleneck of a suite that logs in per test. Sandbox passwords are
 * test credentials; what must hold is that each hash is salted and compared in constant time.
 * Hashes made earlier at N=16384 (data files of earlier versions) carry their cost and still verify.
 */
export const HASH_COST = { N: 256, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** Memory scrypt may take: enough for the old cost (16 MB), and the bound of a stored hash's cost. */
const MAX_MEMORY = 64 * 1024 * 1024;

type Cost = { N: number; r: number; p: number };

function format(cost: Cost, salt: Buffer, hash: Buffer): string {
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

const paramsOf = (cost: Cost): ScryptOptions => ({ ...cost, maxmem: MAX_MEMORY });

/** Synchronous hash with a given salt: used by the seed, which must be deterministic. */
export function hashPasswordSync(password: string, salt: Buffer): string {
  return format(HASH_COST, salt, scryptSync(password, salt, KEY_LENGTH, paramsOf(HASH_COST)));
}

/**
 * The cost a stored hash was made with, or null when it is not one scrypt can take here: N a
 * power of two from 2 to 2^20, r and p from 1 to 16, within `MAX_MEMORY` (a damaged or hostile
 * data file cannot make a login take the process's memory or minutes of CPU).
 */
function storedCost(parts: string[]): Cost | null {
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^\d{1,7}$/.test(v) ? Number(v) : NaN));
  if (!(N >= 2 && N <= 2 ** 20 && (N & (N - 1)) === 0)) return null;
  if (!(r >= 1 && r <= 16 && p >= 1 && p <= 16)) return null;
  return 128 * N * r * p <= MAX_MEMORY / 2 ? { N, r, p } : null;
}

/** Node's scrypt in libuv's thread pool: the event loop stays free while a hash runs. */
const scryptAsync = promisify<BinaryLike, BinaryLike, number, ScryptOptions, Buffer>(scrypt);

const keyOf = (password: string, salt: Buffer, cost: Cost = HASH_COST): Promise<Buffer> =>
  scryptAsync(password, salt, KEY_LENGTH, paramsOf(cost));

/** Hashes off the event loop with a random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return format(HASH_COST, salt, await keyOf(password, salt));
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

/** True when a stored hash was made at today's cost (else an earlier version made it). */
export function hasCurrentCost(stored: string): boolean {
  const [kind, N, r, p] = stored.split('$');
  return kind === 'scrypt' && `${N}$${r}$${p}` === `${HASH_COST.N}$${HASH_COST.r}$${HASH_COST.p}`;
}

/** Constant-time check at the stored hash's own cost; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const cost = storedCost(parts);
  const expected = Buffer.from(parts[5], 'hex');
  if (!cost || expected.length !== KEY_LENGTH) return false;
  const actual = await keyOf(password, Buffer.from(parts[4], 'hex'), cost);
  return timingSafeEqual(actual, expected);
}
