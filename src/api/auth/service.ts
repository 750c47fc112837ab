import { randomBytes } from 'node:crypto';
import { newId } from '../../world/ids.js';
import { dummyHash, hashPassword, hasCurrentCost, verifyPassword } from './passwords.js';
import { sha256 } from './sha256.js';
import type { Db, UserRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import type { Body } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
import { findUserByEmail, normalizeEmail, referralCodeFor } from './users.js';
import { postLedger } from '../wallet/ledger.js';

export const RESET_TOKEN_MS = 3_600_000;

function findReferrer(db: Db, code: string): UserRecord | undefined {
  const wanted = code.trim().toUpperCase();
  return Object.values(db.users).find((u) => u.referral_code === wanted);
}

/** True when `code` is some user's referral code. */
export function isReferralCode(db: Db, code: string): boolean {
  return findReferrer(db, code) !== undefined;
}

/** Creates a user; a valid referral code credits the referrer through the ledger, an unknown one nobody. */
export async function register(
  world: World,
  input: Body<'register'>,
  referralCreditCents: number,
): Promise<UserRecord> {
  const { store, clock } = world;
  const email = normalizeEmail(input.email);
  const check = () => {
    if (findUserByEmail(store.db, email))
      throw new ApiError(409, 'An account with this email already exists');
  };
  check();
  const passwordHash = await hashPassword(input.password);
  // Checked again inside the mutation: another registration may have landed while hashing.
  return store.commit((db) => {
    check();
    const at = clock.nowIso();
    const id = newId(db);
    const referrer = input.referralCode !== undefined ? findReferrer(db, input.referralCode) : undefined;
    const user: UserRecord = {
      id,
      email,
      password_hash: passwordHash,
      full_name: input.fullName ?? null,
      referral_code: referralCodeFor(db.meta.seed, email),
      referred_by: referrer?.id ?? null,
      balance_cents: 0,
      created_at: at,
    };
    db.users[id] = user;
    if (referrer && referralCreditCents > 0) {
      postLedger(db, {
        userId: referrer.id,
        amountCents: referralCreditCents,
        kind: 'referral',
        reference: id,
        description: `Referral credit for ${email}`,
        at,
      });
    }
    return user;
  });
}

/** The user when the e-mail and password match; the same work is done for unknown e-mails. */
export async function authenticate(world: World, email: string, password: string): Promise<UserRecord> {
  const user = findUserByEmail(world.store.db, email);
  const ok = await verifyPassword(password, user?.password_hash ?? dummyHash());
  if (!user || !ok) throw new ApiError(401, 'Invalid email or password');
  if (!hasCurrentCost(user.password_hash)) await upgradeHash(world, user, password);
  return user;
}

/**
 * A hash an earlier version made (scrypt N=16384, ~70 times today's cost) is made again at
 * today's cost once its password is known, so a data file of an earlier version logs in as fast
 * as a new one after each account's first login (docs/security.md, T20). Best effort: on a failed
 * write the old hash stays, still verifies, and the next login tries again.
 */
async function upgradeHash(world: World, user: UserRecord, password: string): Promise<void> {
  const old = user.password_hash;
  const fresh = await hashPassword(password);
  await world.store
    .commit((db) => {
      const record = db.users[user.id];
      if (record?.password_hash === old) record.password_hash = fresh;
    })
    .catch(() => undefined);
}

/**
 * Issues a one-hour, single-use reset token and "mails" it. Unknown addresses get a mail too
 * (saying no account exists), so both paths do the same work and the response cannot tell.
 */
export async function requestPasswordReset(world: World, email: string): Promise<void> {
  const address = normalizeEmail(email);
  const token = randomBytes(24).toString('hex');
  await world.store.commit((db) => {
    const now = world.clock.now();
    const user = findUserByEmail(db, address);
    if (user) {
      db.reset_tokens.push({
        hash: sha256(token),
        user_id: user.id,
        expires_at: new Date(now + RESET_TOKEN_MS).toISOString(),
        used_at: null,
      });
    }
    db.mailbox.push({
      id: newId(db),
      to: address,
      subject: user ? 'Reset your password' : 'Password reset requested',
      text: user
        ? `Use this token with POST /api/auth/reset-password within one hour: ${token}`
        : 'Someone asked to reset the password of this address, but no account uses it.',
      token: user ? token : null,
      created_at: new Date(now).toISOString(),
    });
  });
}

const BAD_RESET_TOKEN = 'Invalid or expired reset token';

function usableToken(db: Db, token: string, now: number) {
  const hash = sha256(token);
  const record = db.reset_tokens.find((t) => t.hash === hash);
  if (
    !record ||
    record.used_at !== null ||
    Date.parse(record.expires_at) <= now ||
    !db.users[record.user_id]
  ) {
    throw new ApiError(400, BAD_RESET_TOKEN);
  }
  return record;
}

export async function resetPassword(world: World, token: string, password: string): Promise<void> {
  usableToken(world.store.db, token, world.clock.now());
  const passwordHash = await hashPassword(password);
  await world.store.commit((db) => {
    const record = usableToken(db, token, world.clock.now());
    record.used_at = world.clock.nowIso();
    db.users[record.user_id].password_hash = passwordHash;
  });
}
