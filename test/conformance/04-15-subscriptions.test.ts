import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, newUser, useSandbox } from './support/client.js';

// Interface document, 4.15 my-plan, 4.16 list of plans, 4.17 subscribe.
const ctx = useSandbox();
const as = (who: keyof typeof accounts) => logIn(ctx.api, accounts[who].email, accounts[who].password);
const balance = async (token: string) =>
  (await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', { token })).body.balance_cents;

type MyPlan = { plan_name: string; limits: { featuredListings: number }; usage: { currentFeatured: number } };
type Plan = {
  id: string;
  name: string;
  price_cents: { monthly: number; yearly: number };
  limits: { featuredListings: number };
};
const subscribe = (token: string, body: Record<string, unknown>) =>
  ctx.api.post<Record<string, unknown>>('/api/shop/subscriptions/subscribe', body, { token });

describe('4.15 GET /api/shop/subscriptions/my-plan (authentication required)', () => {
  it('"Response: plan_name, limits.featuredListings, usage.currentFeatured."', async () => {
    const res = await ctx.api.get<MyPlan>('/api/shop/subscriptions/my-plan', {
      token: await as('subscriber'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan_name: expect.any(String),
      limits: { featuredListings: expect.any(Number) },
      usage: { currentFeatured: expect.any(Number) },
    });
  });
});

describe('4.16 List of subscription plans (public)', () => {
  it('"Returns all available plans. Method, path and response: not shown." (sandbox choice: GET /api/shop/subscriptions/plans)', async () => {
    const res = await ctx.api.get<{ plans: Plan[] }>('/api/shop/subscriptions/plans');
    expect(res.status).toBe(200);
    expect(res.body.plans.map((p) => p.id)).toEqual(['free', 'basic', 'pro', 'business']);
    for (const plan of res.body.plans) {
      expect(Number.isInteger(plan.limits.featuredListings)).toBe(true);
      expect(Number.isInteger(plan.price_cents.monthly) && Number.isInteger(plan.price_cents.yearly)).toBe(
        true,
      );
    }
  });
});

describe('4.17 POST /api/shop/subscriptions/subscribe (authentication required)', () => {
  it('wallet paid: "success, paymentMethod = credit_wallet, message (string), plan (string), deducted (integer cents)"', async () => {
    const token = await as('buyer');
    const before = await balance(token);
    const res = await subscribe(token, {
      planId: 'pro',
      billingCycle: 'monthly',
      paymentMethod: 'credit_wallet',
      currency: 'USD',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      paymentMethod: 'credit_wallet',
      message: expect.any(String),
      plan: expect.any(String),
      deducted: expect.any(Number),
    });
    expect(Number.isInteger(res.body.deducted)).toBe(true);
    expect(before - (await balance(token))).toBe(res.body.deducted);
    const mine = await ctx.api.get<MyPlan>('/api/shop/subscriptions/my-plan', { token });
    expect(mine.body.limits.featuredListings).toBe(10);
  });

  it('"billingCycle (monthly or yearly)": a yearly cycle charges the yearly price', async () => {
    const plans = (await ctx.api.get<{ plans: Plan[] }>('/api/shop/subscriptions/plans')).body.plans;
    const basic = plans.find((p) => p.id === 'basic') as Plan;
    const res = await subscribe(await as('buyer'), {
      planId: 'basic',
      billingCycle: 'yearly',
      paymentMethod: 'credit_wallet',
      currency: 'USD',
    });
    expect(res.body.deducted).toBe(basic.price_cents.yearly);
    expectError(
      await subscribe(await as('buyer'), {
        planId: 'basic',
        billingCycle: 'weekly',
        paymentMethod: 'credit_wallet',
      }),
      400,
    );
  });

  it('"Payment is wallet-first, with the provider redirect when the balance is insufficient." provider redirect: "success, paymentMethod = payprovider, approvalUrl (string, URL), plan (string)"', async () => {
    const token = await as('broke');
    const res = await subscribe(token, {
      planId: 'basic',
      billingCycle: 'monthly',
      paymentMethod: 'credit_wallet',
      currency: 'USD',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, paymentMethod: 'payprovider', plan: expect.any(String) });
    expect(() => new URL(String(res.body.approvalUrl))).not.toThrow();
    expect(await balance(token)).toBe(0);
  });

  it('"paymentMethod (credit_wallet or payprovider)": payprovider sends to the provider even with money in the wallet', async () => {
    const token = await as('buyer');
    const res = await subscribe(token, {
      planId: 'basic',
      billingCycle: 'monthly',
      paymentMethod: 'payprovider',
      currency: 'USD',
    });
    expect([res.status, res.body.paymentMethod]).toEqual([200, 'payprovider']);
    expect(await balance(token)).toBe(100_000);
  });

  it('"currency (wallet or fiat currency code, a Credit-<code> value is allowed)"', async () => {
    for (const currency of ['EUR', 'JPY', 'Credit-USD', 'Credit-EUR']) {
      const user = await newUser(ctx.api);
      await ctx.sandbox.fund(user.email, 5000);
      const res = await subscribe(user.token, {
        planId: 'basic',
        billingCycle: 'monthly',
        paymentMethod: 'credit_wallet',
        currency,
      });
      expect([currency, res.status, res.body.paymentMethod], JSON.stringify(res.body)).toEqual([
        currency,
        200,
        'credit_wallet',
      ]);
    }
  });
});
