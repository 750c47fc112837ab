import { newId } from '../../world/ids.js';
import { DEFAULT_SANDBOX_ID } from '../../world/sandbox-id.js';
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
  /** Where the provider page's return link leads (checkout `returnUrl`); none: the sandbox home. */
  returnUrl?: string;
  /** What the provider asks for an order's items, in a currency its listings accept. */
  quote?: PaymentRecord['quote'];
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
  if (input.returnUrl !== undefined) payment.return_url = input.returnUrl;
  if (input.quote !== undefined) payment.quote = input.quote;
  db.payments[payment.id] = payment;
  return payment;
}

/**
 * The absolute URL of the sandbox's provider page for a payment. A payment made in an isolated
 * sandbox carries its id as `sandbox_id`: a browser cannot send `X-Sandbox-Id`, and a proxy in
 * front of several replicas routes the page by it (docs/scaling.md).
 * @example approvalUrl('http://127.0.0.1:3000', id, 'default') // http://127.0.0.1:3000/sandbox/payprovider/<id>
 * @example approvalUrl('http://127.0.0.1:3000', id, 'ci-7') // …/sandbox/payprovider/<id>?sandbox_id=ci-7
 */
export function approvalUrl(baseUrl: string, paymentId: string, sandboxId: string): string {
  const page = `${baseUrl}/sandbox/payprovider/${paymentId}`;
  return sandboxId === DEFAULT_SANDBOX_ID ? page : `${page}?sandbox_id=${sandboxId}`;
}

/** True when a pending payment's hold has run out at `now`. */
export function isDue(payment: PaymentRecord, now: number): boolean {
  return payment.status === 'pending' && Date.parse(payment.expires_at) <= now;
}
