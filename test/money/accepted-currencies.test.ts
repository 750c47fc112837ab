import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { balanceOf, freeze, keyOf } from './helpers.js';

/** Creates a listing as the seller test account would, through POST /api/shop/listings. */
async function sell(sb: TestSandbox, fields: Record<string, unknown>): Promise<string> {
  const res = await sb.http
    .post('/api/shop/listings')
    .set('Authorization', keyOf('seller'))
    .send({ type: 'mall', title: 'Desk lamp', category: 'decor', quantity_available: 5, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const pickup = (ids: string[], paymentMethod?: string) => ({
  cartItems: ids.map((id) => ({ listing_id: id, quantity: 2 })),
  deliveryMethod: 'pickup',
  ...(paymentMethod ? { paymentMethod } : {}),
});

/** What a refused checkout must leave as it was. */
const state = (sb: TestSandbox, id: string) => ({
  balance: balanceOf(sb, accounts.buyer.email),
  stock: sb.world.store.db.listings[id].quantity_available,
  orders: Object.keys(sb.world.store.db.orders).length,
  payments: Object.keys(sb.world.store.db.payments).length,
  nextId: sb.world.store.db.meta.next_id,
});

describe('checkout: accepted_currencies is what the buyer may pay with', () => {
  it('refuses a wallet checkout of a listing accepting neither USD nor a Credit- currency, saying what it accepts', async () => {
    const sb = await makeSandbox();
    const id = await sell(sb, { price_cents: 4000, currency: 'EUR', accepted_currencies: ['EUR', 'BTC'] });
    const before = state(sb, id);
    for (const method of [undefined, 'credit_wallet']) {
      const res = await sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('buyer'))
        .send(pickup([id], method));
      expectError(
        res,
        400,
        `Listing ${id} accepts only EUR, BTC: the wallet pays in USD or a Credit-<code> currency; check out with paymentMethod payprovider`,
      );
    }
    // Also when the balance is short (the provider fallback would have been taken).
    const broke = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send(pickup([id]));
    expectError(broke, 400, /accepts only EUR, BTC/);
    expect(state(sb, id)).toEqual(before);
  });

  it('lets the wallet pay a listing that accepts USD or a Credit- currency', async () => {
    const sb = await makeSandbox();
    const credit = await sell(sb, {
      price_cents: 1500,
      currency: 'Credit-EUR',
      accepted_currencies: ['Credit-EUR'],
    });
    const usd = await sell(sb, { price_cents: 1500, accepted_currencies: ['USD'] });
    for (const id of [credit, usd]) {
      const res = await sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('buyer'))
        .send(pickup([id]));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.paymentMethod).toBe('credit_wallet');
    }
  });

  it('quotes the provider payment in a currency the listing accepts, shipping apart in USD', async () => {
    const sb = await makeSandbox();
    await freeze(sb);
    const id = await sell(sb, { price_cents: 4000, currency: 'EUR', accepted_currencies: ['EUR'] });
    const res = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send({ ...pickup([id], 'payprovider') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      paymentMethod: 'payprovider',
      shippingCurrency: 'USD',
      quote: { currency: 'EUR', items_cents: 8000 },
    });
    const rate = (await sb.http.get('/api/wallet/exchange-rates')).body.rates.EUR.rate as number;
    const payment = (await sb.http.get(`/__sandbox/payprovider/${res.body.paymentId}`)).body.payment;
    expect(payment).toMatchObject({ quote: { currency: 'EUR', items_cents: 8000 } });
    expect(payment.amount_cents).toBe(Math.floor(8000 / rate + 0.5));
    const page = await sb.http.get(new URL(res.body.approvalUrl as string).pathname);
    expect(page.text).toContain('<strong id="quote">80.00 EUR</strong>');
    const approved = await sb.http.post(`/__sandbox/payprovider/${res.body.paymentId}/approve`);
    expect(approved.body.order).toMatchObject({ status: 'paid', total_cents: payment.amount_cents });
  });

  it('quotes in USD when every listing accepts it, else in the first currency all accept, converting other prices', async () => {
    const sb = await makeSandbox();
    await freeze(sb);
    const rates = (await sb.http.get('/api/wallet/exchange-rates')).body.rates;
    const usd = await sell(sb, { price_cents: 1000, accepted_currencies: ['USD', 'EUR'] });
    const yen = await sell(sb, {
      price_cents: 150000,
      currency: 'JPY',
      accepted_currencies: ['JPY', 'EUR', 'USD'],
    });
    const both = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('broke'))
      .send(pickup([usd, yen]));
    expect(both.body.paymentMethod).toBe('payprovider');
    const yenUsd = Math.floor(300000 / rates.JPY.rate + 0.5);
    expect(both.body.quote).toEqual({ currency: 'USD', items_cents: 2000 + yenUsd });
    const eurOnly = await sell(sb, { price_cents: 1000, accepted_currencies: ['EUR'] });
    const euro = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send(pickup([yen, eurOnly], 'payprovider'));
    const inEur = (usdCents: number) => Math.floor(usdCents * rates.EUR.rate + 0.5);
    expect(euro.body.quote).toEqual({ currency: 'EUR', items_cents: inEur(yenUsd) + inEur(2000) });
  });

  it('refuses a provider checkout of listings that accept no currency in common, and changes nothing', async () => {
    const sb = await makeSandbox();
    const a = await sell(sb, {
      price_cents: 1000,
      currency: 'Credit-EUR',
      accepted_currencies: ['Credit-EUR'],
    });
    const b = await sell(sb, { price_cents: 1000, accepted_currencies: ['USD'] });
    const before = state(sb, a);
    const asked = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send(pickup([a, b], 'payprovider'));
    const message = `The listings accept no currency in common (${a} accepts Credit-EUR; ${b} accepts USD): check them out separately`;
    expectError(asked, 400, message);
    // The wallet can pay both; when it is short, the fallback to the provider meets the same rule.
    expectError(
      await sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('broke'))
        .send(pickup([a, b])),
      400,
      message,
    );
    expect(state(sb, a)).toEqual(before);
    const wallet = await sb.http
      .post('/api/shop/checkout')
      .set('Authorization', keyOf('buyer'))
      .send(pickup([a, b]));
    expect(wallet.body.paymentMethod).toBe('credit_wallet');
  });
});

describe('checkout: auctions and reverse auctions are sold at their price', () => {
  it('checks out an auction at its starting bid and a reverse auction at its budget, or at 0 without one', async () => {
    const sb = await makeSandbox();
    const auction = await sell(sb, { type: 'auction', price_cents: 2500, quantity_available: 1 });
    const reverse = await sell(sb, { type: 'reverse_auction', price_cents: 7000, quantity_available: 1 });
    const noBudget = await sell(sb, { type: 'reverse_auction', quantity_available: 1 });
    for (const [id, cents] of [
      [auction, 2500],
      [reverse, 7000],
      [noBudget, 0],
    ] as const) {
      const res = await sb.http
        .post('/api/shop/checkout')
        .set('Authorization', keyOf('buyer'))
        .send({ cartItems: [{ listing_id: id, quantity: 1 }], deliveryMethod: 'pickup' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ paymentMethod: 'credit_wallet', deducted: cents });
    }
  });
});
