import { randomBytes } from 'node:crypto';
import { parseDuration } from '../world/clock.js';
import type { Reply } from '../contract/types.js';
import { ApiError } from '../contract/errors.js';
import { newId } from '../world/ids.js';
import { hashPasswordSync } from '../api/auth/passwords.js';
import { postLedger } from '../api/wallet/ledger.js';
import { sha256 } from '../api/auth/sha256.js';
import { findUserByEmail, referralCodeFor } from '../api/auth/users.js';
import type { Db, UserRecord } from '../store/types.js';
import type { World } from '../world/world.js';
import type { Overlay, OverlayListing, OverlayUser } from './file.js';

const DAY_MS = 86_400_000;

/** What an overlay changed, for the activate answer. */
export type OverlaySummary = Reply<'activateScenarioFile'>['overlay'];

/** Every check before any change: unknown e-mails are refused unless the overlay creates them. */
function check(db: Db, overlay: Overlay): void {
  const known = (email: string) =>
    Boolean(findUserByEmail(db, email)) ||
    (overlay.users ?? []).some((u) => u.email.toLowerCase() === email.toLowerCase());
  const refs = [
    ...(overlay.wallets ?? []).map((w) => ['wallets', w.email]),
    ...(overlay.plans ?? []).map((p) => ['plans', p.email]),
    ...(overlay.listings ?? []).map((l) => ['listings', l.seller]),
  ];
  for (const [where, email] of refs) {
    if (!known(email))
      throw new ApiError(400, `overlay.${where}: no user ${email} (add it under overlay.users)`);
  }
  if (overlay.clock?.advance !== undefined && parseDuration(overlay.clock.advance) === null)
    throw new ApiError(400, 'overlay.clock.advance must be a duration such as "25h"');
}

function setBalance(db: Db, user: UserRecord, cents: number, at: string): void {
  const delta = cents - user.balance_cents;
  if (delta === 0) return;
  postLedger(db, {
    userId: user.id,
    amountCents: delta,
    kind: 'fund',
    reference: null,
    description: 'Scenario overlay',
    at,
  });
}

function upsertUser(db: Db, u: OverlayUser, at: string): UserRecord {
  let user = findUserByEmail(db, u.email);
  if (!user) {
    const id = newId(db);
    const email = u.email.trim().toLowerCase();
    user = {
      id,
      email,
      password_hash: '',
      full_name: u.fullName ?? null,
      referral_code: referralCodeFor(db.meta.seed, email),
      referred_by: null,
      balance_cents: 0,
      created_at: at,
    };
    db.users[id] = user;
  }
  if (u.fullName !== undefined) user.full_name = u.fullName;
  // A fresh random salt: overlay users are test data, their hashes need not be reproducible.
  if (u.password !== undefined) user.password_hash = hashPasswordSync(u.password, randomBytes(16));
  if (!user.password_hash)
    user.password_hash = hashPasswordSync(randomBytes(16).toString('hex'), randomBytes(16));
  if (
    u.api_key !== undefined &&
    !Object.values(db.api_keys).some((k) => k.hash === sha256(u.api_key as string))
  ) {
    const keyId = newId(db);
    db.api_keys[keyId] = {
      id: keyId,
      user_id: user.id,
      name: 'Scenario key',
      prefix: u.api_key.slice(0, 16),
      hash: sha256(u.api_key),
      created_at: at,
      revoked_at: null,
    };
  }
  if (u.balance_cents !== undefined) setBalance(db, user, u.balance_cents, at);
  return user;
}

function putListing(db: Db, l: OverlayListing, at: string): void {
  const seller = findUserByEmail(db, l.seller) as UserRecord;
  const store = Object.values(db.stores).find((s) => s.owner_id === seller.id);
  db.listings[l.id] = {
    id: l.id,
    seller_id: seller.id,
    store_slug: store?.slug ?? null,
    type: l.type ?? 'mall',
    title: l.title,
    description: l.description ?? null,
    category: l.category ?? db.categories[0]?.slug ?? 'other',
    price_cents: l.price_cents ?? 1000,
    currency: l.currency ?? 'USD',
    accepted_currencies: l.accepted_currencies ?? ['USD'],
    quantity_available: l.quantity_available ?? 1,
    duration: l.duration ?? '2weeks',
    location_city: l.location_city ?? null,
    location_country: l.location_country ?? null,
    lat: null,
    lng: null,
    images: [],
    is_featured: l.is_featured ?? false,
    featured_payment_method: l.is_featured ? (l.featured_payment_method ?? 'subscription') : null,
    created_at: at,
  };
  db.meta.listings = Object.keys(db.listings).length;
}

/** Freeze first, then move, as POST /__sandbox/clock does: `{set, freeze: true}` stops exactly at `set`. */
function moveClock(world: World, clock: NonNullable<Overlay['clock']>): void {
  if (clock.freeze !== undefined) world.clock.freeze(clock.freeze);
  if (clock.set !== undefined) world.clock.set(Date.parse(clock.set));
  if (clock.advance !== undefined) world.clock.advance(parseDuration(clock.advance) as number);
}

/**
 * Applies a state overlay in one synchronous mutation, after checking every reference: clock
 * first (so new records carry the overlay's time), then users, wallets, plans and listings.
 */
export function applyOverlay(world: World, overlay: Overlay): OverlaySummary {
  check(world.store.db, overlay);
  if (overlay.clock) moveClock(world, overlay.clock);
  const at = world.clock.nowIso();
  world.store.mutate((db) => {
    for (const u of overlay.users ?? []) upsertUser(db, u, at);
    for (const w of overlay.wallets ?? [])
      setBalance(db, findUserByEmail(db, w.email) as UserRecord, w.balance_cents, at);
    for (const p of overlay.plans ?? []) {
      const user = findUserByEmail(db, p.email) as UserRecord;
      const cycle = p.billing_cycle ?? 'monthly';
      const ends = world.clock.now() + (cycle === 'yearly' ? 365 : 30) * DAY_MS;
      db.subscriptions[user.id] = {
        user_id: user.id,
        plan_id: p.plan_id,
        billing_cycle: cycle,
        started_at: at,
        expires_at: new Date(ends).toISOString(),
      };
    }
    for (const l of overlay.listings ?? []) putListing(db, l, at);
  });
  return {
    users: overlay.users?.length ?? 0,
    wallets: overlay.wallets?.length ?? 0,
    plans: overlay.plans?.length ?? 0,
    listings: overlay.listings?.length ?? 0,
    clock: overlay.clock !== undefined,
  };
}
