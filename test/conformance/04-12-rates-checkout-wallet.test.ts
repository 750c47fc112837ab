import { describe, expect, it } from 'vitest';
import { accounts, logIn, newUser, useSandbox } from './support/client.js';
import { fieldProblems, BALANCE_FIELDS } from './support/document.js';
import { buyableListing, checkoutBody, createListing } from './support/shop.js';

// Interface document, 4.12 exchange rates, 4.14 checkout, 4.18 wallet balance.
const ctx = useSandbox();
const as = (who: keyof typeof accounts) => logIn(ctx.api, accounts[who].email, accounts[who].password);
const balance = async (token: string) =>
  (await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', { token })).body.balance_cents;

type Rates = { rates: Record<string, { rate: number }>; updated_at: string };
type Paid = {
  success: boolean;
  paymentMethod: string;
  deducted: number;
  shippingCurrency: string;
  orderId: string;
};
type Redirect = { success: boolean; paymentMethod: string; approvalUrl: string; shippingCurrency: string };

describe('4.12 GET /api/wallet/exchange-rates', () => {
  it('"Covers 84 wallet currencies and fiat pairs.": each Credit-<code> has its <code> beside it', async () => {
    const res = await ctx.api.get<Rates>('/api/wallet/exchange-rates');
    const wallet = Object.keys(res.body.rates).filter((c) => c.startsWith('Credit-'));
    expect(wallet).toHaveLength(84);
    expect(wallet.filter((c) => !(c.slice('Credit-'.length) in res.body.rates))).toEqual([]);
  });

  it('"Rates refresh every 30 minutes": the same within a window, new after 30 minutes (sandbox clock)', async () => {
    const read = async () => (await ctx.api.get<Rates>('/api/wallet/exchange-rates')).body;
    const { now } = await ctx.sandbox.clock.freeze();
    const current = await read();
    // Step to one second into the next window, then move within it and on to the one after.
    await ctx.sandbox.clock.advance(Date.parse(current.updated_at) + 30 * 60_000 - Date.parse(now) + 1000);
    const next = await read();
    expect(Date.parse(next.updated_at) - Date.parse(current.updated_at)).toBe(30 * 60_000);
    await ctx.sandbox.clock.advance(29 * 60_000);
    expect(await read()).toEqual(next);
    await ctx.sandbox.clock.advance(60_000);
    const after = await read();
    expect(Date.parse(after.updated_at) - Date.parse(next.updated_at)).toBe(30 * 60_000);
    expect(after.rates.EUR.rate).not.toBe(next.rates.EUR.rate);
  });

  it('"Rates refresh every 30 minutes": updated_at, read by a client\'s clock, is never older than 30 minutes', async () => {
    const res = await ctx.api.get<Rates>('/api/wallet/exchange-rates');
    const age = Date.now() - Date.parse(res.body.updated_at);
    expect(age, `updated_at ${res.body.updated_at}`).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect(age).toBeGreaterThanOrEqual(-5_000);
  });
});

describe('4.14 POST /api/shop/checkout (authentication required)', () => {
  it('"When the balance suffices, the amount is deducted from the wallet." wallet paid: success, paymentMethod = credit_wallet, deducted (integer cents), shippingCurrency = USD', async () => {
    const token = await as('buyer');
    const before = await balance(token);
    const listing = await buyableListing(ctx.api);
    const res = await ctx.api.post<Paid>('/api/shop/checkout', checkoutBody(listing.id, 2, 500), { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      paymentMethod: 'credit_wallet',
      shippingCurrency: 'USD',
    });
    expect(Number.isInteger(res.body.deducted)).toBe(true);
    expect(res.body.deducted).toBe(2 * listing.price_cents + 500);
    expect(before - (await balance(token))).toBe(res.body.deducted);
  });

  it('"Otherwise the buyer is sent to the external payment provider. This fallback is not an error." provider redirect: success, paymentMethod = payprovider, approvalUrl (string, URL), shippingCurrency = USD', async () => {
    const token = await as('broke');
    const listing = await buyableListing(ctx.api);
    const res = await ctx.api.post<Redirect>('/api/shop/checkout', checkoutBody(listing.id), { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, paymentMethod: 'payprovider', shippingCurrency: 'USD' });
    expect(() => new URL(res.body.approvalUrl)).not.toThrow();
    expect(await balance(token)).toBe(0);
  });

  it('"the wallet is tried first": a balance of exactly the total pays; one cent less goes to the provider', async () => {
    const listing = await buyableListing(ctx.api);
    const total = listing.price_cents + 500;
    for (const [funds, expected] of [
      [total, 'credit_wallet'],
      [total - 1, 'payprovider'],
    ] as const) {
      const user = await newUser(ctx.api);
      // How a wallet is funded is not shown; the sandbox's control API does it (openapi.yaml `fundWallet`; docs/money.md).
      await ctx.sandbox.fund(user.email, funds);
      const res = await ctx.api.post<Paid>('/api/shop/checkout', checkoutBody(listing.id), {
        token: user.token,
      });
      expect([funds, res.status, res.body.paymentMethod]).toEqual([funds, 200, expected]);
      expect(await balance(user.token)).toBe(expected === 'credit_wallet' ? 0 : funds);
    }
  });

  it('"The platform fee is deducted from the item price.": the buyer pays the price, the seller gets the price less the fee', async () => {
    const sellerToken = await as('seller');
    const created = await createListing(ctx.api, sellerToken, { price_cents: 1010, quantity_available: 3 });
    const sellerBefore = await balance(sellerToken);
    const buyerToken = await as('buyer');
    const res = await ctx.api.post<Paid>('/api/shop/checkout', checkoutBody(created.body.id, 1, 500), {
      token: buyerToken,
    });
    expect(res.body.deducted).toBe(1010 + 500);
    const order = await ctx.api.get<{ platform_fee_cents: number }>(`/api/shop/orders/${res.body.orderId}`, {
      token: buyerToken,
    });
    // The fee rate is not shown; the sandbox's choice is 5% (openapi.yaml `checkout`; docs/money.md, `--platform-fee-bps`).
    expect(order.body.platform_fee_cents).toBe(51);
    expect((await balance(sellerToken)) - sellerBefore).toBe(1010 - 51);
  });

  it('"shippingCostCents | number | always USD" and "Shipping is always charged in USD.", for an item priced in EUR', async () => {
    const created = await createListing(ctx.api, await as('seller'), {
      price_cents: 2000,
      currency: 'EUR',
      accepted_currencies: ['EUR', 'USD'],
    });
    await ctx.sandbox.clock.freeze(); // the checkout converts at the rates of the same window
    const { rates } = (await ctx.api.get<Rates>('/api/wallet/exchange-rates')).body;
    const res = await ctx.api.post<Paid>('/api/shop/checkout', checkoutBody(created.body.id, 1, 700), {
      token: await as('buyer'),
    });
    expect(res.body.shippingCurrency).toBe('USD');
    expect(res.body.deducted - 700).toBe(Math.round(2000 / rates.EUR.rate));
  });

  it('"cartItems | array | items of listing_id (string, UUID) and quantity (integer)": several lines are paid together', async () => {
    const { body } = await ctx.api.get<{
      listings: { id: string; price_cents: number; quantity_available: number }[];
    }>('/api/shop/listings', {
      query: { type: 'mall', currency: 'USD', minPrice: 1, maxPrice: 30, limit: 50 },
    });
    const [a, b] = body.listings.filter((l) => l.quantity_available >= 3);
    const order = {
      ...checkoutBody(a.id, 1, 400),
      cartItems: [
        { listing_id: a.id, quantity: 1 },
        { listing_id: b.id, quantity: 3 },
      ],
    };
    const res = await ctx.api.post<Paid>('/api/shop/checkout', order, { token: await as('buyer') });
    expect([res.status, res.body.deducted]).toEqual([200, a.price_cents + 3 * b.price_cents + 400]);
  });

  it('"deliveryMethod | string | shipping is the value given", "paymentMethod | string | credit_wallet is the value given"', async () => {
    const listing = await buyableListing(ctx.api);
    const res = await ctx.api.post<Paid>('/api/shop/checkout', checkoutBody(listing.id), {
      token: await as('buyer'),
    });
    expect([res.status, res.body.paymentMethod]).toEqual([200, 'credit_wallet']);
  });
});

describe('4.18 GET /api/wallet/balance (authentication required)', () => {
  it('"Response: balance_cents (integer), balance_usd (string)."', async () => {
    const res = await ctx.api.get('/api/wallet/balance', { token: await as('buyer') });
    expect(res.status).toBe(200);
    expect(fieldProblems(res.body, BALANCE_FIELDS, 'balance')).toEqual([]);
    expect(res.body).toEqual({ balance_cents: 100_000, balance_usd: '1000.00' });
  });
});
