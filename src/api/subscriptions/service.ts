import type { Body, Reply } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
import type { Db } from '../../store/types.js';
import { approvalUrl, createPayment } from '../payprovider/service.js';
import { displayAmount } from '../wallet/convert.js';
import { postLedger } from '../wallet/ledger.js';
import type { RateTable } from '../wallet/rates.js';
import { CYCLE_MS, findPlan, type BillingCycle, type Plan } from './plans.js';

/** The body of POST /api/shop/subscriptions/subscribe, validated (`paymentMethod` default credit_wallet). */
export type SubscribeInput = Body<'subscribe'>;

export interface SubscribeContext {
  userId: string;
  now: number;
  rates: RateTable;
  baseUrl: string;
  /** The sandbox the call was made in (the approval URL names it). */
  sandboxId: string;
  /** Take the provider redirect whatever the balance (scenario `wallet.insufficient`). */
  forceProvider?: boolean;
}

/** Paid from the wallet, or a provider redirect (openapi.yaml subscribe's 200). */
export type SubscribeResult = Reply<'subscribe'>;

/** `pro:monthly` → { planId: 'pro', cycle: 'monthly' } (the reference of a subscription payment). */
export function parsePlanReference(reference: string): { planId: string; cycle: BillingCycle } {
  const [planId, cycle] = reference.split(':');
  return { planId, cycle: cycle as BillingCycle };
}

/**
 * Starts `planId` for one cycle from `now`, replacing whatever plan the user had (no proration:
 * the new cycle starts at once). The free plan simply removes the subscription.
 */
export function activatePlan(
  db: Db,
  userId: string,
  planId: string,
  cycle: BillingCycle,
  now: number,
): string {
  if (planId === 'free') {
    delete db.subscriptions[userId];
    return new Date(now).toISOString();
  }
  const expiresAt = new Date(now + CYCLE_MS[cycle]).toISOString();
  db.subscriptions[userId] = {
    user_id: userId,
    plan_id: planId,
    billing_cycle: cycle,
    started_at: new Date(now).toISOString(),
    expires_at: expiresAt,
  };
  return expiresAt;
}

function checkInput(input: SubscribeInput, rates: RateTable): { plan: Plan; currency: string } {
  const plan = findPlan(input.planId);
  if (!plan) throw new ApiError(404, `Plan not found: ${input.planId}`);
  const currency = input.currency ?? 'USD';
  if (!rates.rates.has(currency))
    throw new ApiError(
      400,
      `body.currency ${currency} is not a known currency; see GET /api/wallet/exchange-rates`,
    );
  return { plan, currency };
}

function payFromWallet(
  db: Db,
  plan: Plan,
  input: SubscribeInput,
  currency: string,
  ctx: SubscribeContext,
): SubscribeResult {
  const price = plan.price_cents[input.billingCycle];
  if (price > 0)
    postLedger(db, {
      userId: ctx.userId,
      amountCents: -price,
      kind: 'subscription',
      reference: `${plan.id}:${input.billingCycle}`,
      description: `${plan.name} plan, ${input.billingCycle}`,
      at: new Date(ctx.now).toISOString(),
    });
  const expiresAt = activatePlan(db, ctx.userId, plan.id, input.billingCycle, ctx.now);
  const charged = `${displayAmount(price, currency, ctx.rates)} (${displayAmount(price, 'USD', ctx.rates)})`;
  const message =
    plan.id === 'free'
      ? 'You are on the Free plan'
      : `Subscribed to ${plan.name} (${input.billingCycle}) until ${expiresAt}; charged ${charged}`;
  return {
    success: true,
    paymentMethod: 'credit_wallet',
    message,
    plan: plan.id,
    deducted: price,
    expires_at: expiresAt,
  };
}

/**
 * Subscribe (openapi.yaml `subscribe`; docs/money.md, Subscriptions): wallet first, provider fallback (never an error). Plan prices are
 * USD cents; `currency` only decides how the price is shown in the message (converted at the
 * current window's rate), and `deducted` is the USD-cent amount taken from the wallet. The free
 * plan needs no payment.
 */
export function subscribe(db: Db, input: SubscribeInput, ctx: SubscribeContext): SubscribeResult {
  const { plan, currency } = checkInput(input, ctx.rates);
  const price = plan.price_cents[input.billingCycle];
  const walletCovers = !ctx.forceProvider && db.users[ctx.userId].balance_cents >= price;
  if (price === 0 || ((input.paymentMethod ?? 'credit_wallet') === 'credit_wallet' && walletCovers))
    return payFromWallet(db, plan, input, currency, ctx);
  const payment = createPayment(db, {
    kind: 'subscription',
    userId: ctx.userId,
    amountCents: price,
    reference: `${plan.id}:${input.billingCycle}`,
    description: `${plan.name} plan, ${input.billingCycle}: ${displayAmount(price, currency, ctx.rates)}`,
    now: ctx.now,
  });
  return {
    success: true,
    paymentMethod: 'payprovider',
    approvalUrl: approvalUrl(ctx.baseUrl, payment.id, ctx.sandboxId),
    plan: plan.id,
    paymentId: payment.id,
  };
}
