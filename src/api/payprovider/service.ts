import { newId } from '../../world/ids.js';
import type { Db, PaymentRecord } from '../../store/types.js';

/** A provider payment waits this long (sandbox time) for approval; then it expires and releases its hold. */
export const PAYMENT_HOLD_MS = 3 * 3_600_000;

export interface NewPayment {
  kind: PaymentRecord['kind'];
  userId: string;
  amountCents: number;
  reference: string;
  description: string;
  now: number;
}

/** Opens a pending provider payment (the caller has checked everything else already). */
export function createPayment(db: Db, input: NewPayment): PaymentRecord {
  const payment: PaymentRecord = {
    id: newId(db),
    kind: input.kind,
    user_id: input.userId,
    amount_cents: input.amountCents,
    reference: input.reference,
    description: input.description,
    status: 'pending',
    created_at: new Date(input.now).toISOString(),
    expires_at: new Date(input.now + PAYMENT_HOLD_MS).toISOString(),
    resolved_at: null,
  };
  db.payments[payment.id] = payment;
  return payment;
}

/**
 * The absolute URL of the sandbox's provider page for a payment.
 * @example approvalUrl('http://127.0.0.1:3000', id) // http://127.0.0.1:3000/sandbox/payprovider/<id>
 */
export function approvalUrl(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/sandbox/payprovider/${paymentId}`;
}

/** True when a pending payment's hold has run out at `now`. */
export function isDue(payment: PaymentRecord, now: number): boolean {
  return payment.status === 'pending' && Date.parse(payment.expires_at) <= now;
}
