import { ApiError } from '../../contract/errors.js';
import { untracked } from '../../store/dirty-tracker.js';
import type { Db, PaymentRecord } from '../../store/types.js';
import { perStoreVersion, type World } from '../../world/world.js';
import type { RequestHandler } from 'express';
import { featureListing } from '../featured/service.js';
import { cancelOrder, payOrder } from '../orders/settle.js';
import { activatePlan, parsePlanReference } from '../subscriptions/service.js';
import { isDue } from './service.js';

/** Releases what a payment held: a pending order is cancelled and its stock put back. */
function release(db: Db, payment: PaymentRecord, at: string): void {
  if (payment.kind !== 'order') return;
  const order = db.orders[payment.reference];
  if (order && order.status === 'pending_payment') cancelOrder(db, order, at);
}

/** Does what the payment paid for: the order, the plan, or the featured placement. */
function fulfil(db: Db, payment: PaymentRecord, now: number): void {
  const at = new Date(now).toISOString();
  if (payment.kind === 'order') {
    const order = db.orders[payment.reference];
    if (order && order.status === 'pending_payment') payOrder(db, order, at);
  } else if (payment.kind === 'subscription') {
    const { planId, cycle } = parsePlanReference(payment.reference);
    activatePlan(db, payment.user_id, planId, cycle, now);
  } else {
    featureListing(db, payment.reference, 'payprovider');
  }
}

/**
 * Expires every pending payment whose three-hour hold has run out on the sandbox clock. Called
 * at the start of every mutation that touches payments, orders or stock, so an expiry is always
 * applied before anything reads the hold (the clock may jump without any request).
 */
export function expireDuePayments(db: Db, now: number): number {
  let count = 0;
  // Searched without the tracking view (no proxy per payment); a due one is changed through `db`.
  for (const [id, found] of Object.entries(untracked(db.payments))) {
    if (!isDue(found, now)) continue;
    const payment = db.payments[id];
    payment.status = 'expired';
    payment.resolved_at = payment.expires_at;
    release(db, payment, payment.expires_at);
    count += 1;
  }
  return count;
}

/** The earliest expiry among pending payments (Infinity when none), recomputed only after a store change. */
function nextExpiry(world: World): number {
  return perStoreVersion(world, 'money.nextExpiry', () => {
    let at = Infinity;
    for (const p of Object.values(world.store.db.payments))
      if (p.status === 'pending') at = Math.min(at, Date.parse(p.expires_at));
    return at;
  });
}

/** Applies due expiries before a read; writes (and waits for durability) only when one is due. */
export async function sweepExpired(world: World): Promise<void> {
  const now = world.clock.now();
  if (nextExpiry(world) <= now) await world.store.commit((db) => expireDuePayments(db, now));
}

/**
 * Runs before every request: the sandbox clock can jump (or simply run) past a hold without any
 * request, so due expiries are applied first and every read (listing stock included) sees the
 * released stock. Costs one comparison per request when nothing is due.
 */
export const applyDueExpiries: RequestHandler = async (req, _res, next) => {
  await sweepExpired(req.world);
  next();
};

function pendingPayment(db: Db, paymentId: string, now: number): PaymentRecord {
  expireDuePayments(db, now);
  const payment = db.payments[paymentId];
  if (!payment) throw new ApiError(404, `Payment not found: ${paymentId}`);
  if (payment.status !== 'pending')
    throw new ApiError(
      409,
      `Payment ${paymentId} is already ${payment.status}; only a pending payment can change`,
    );
  return payment;
}

/** Approves a pending payment and fulfils it; a second approval (or any non-pending one) is a 409. */
export function approvePayment(db: Db, paymentId: string, now: number): PaymentRecord {
  const payment = pendingPayment(db, paymentId, now);
  payment.status = 'approved';
  payment.resolved_at = new Date(now).toISOString();
  fulfil(db, payment, now);
  return payment;
}

/** Cancels a pending payment and releases what it held. */
export function cancelPayment(db: Db, paymentId: string, now: number): PaymentRecord {
  const payment = pendingPayment(db, paymentId, now);
  payment.status = 'cancelled';
  payment.resolved_at = new Date(now).toISOString();
  release(db, payment, payment.resolved_at);
  return payment;
}
