import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';
import { balanceOf, keyOf, ledgerSum } from './helpers.js';

describe('GET /api/wallet/transactions', () => {
  it('lists the opening balance of a test account and sums to the balance', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/wallet/transactions').set('Authorization', keyOf('buyer'));
    expect(res.status).toBe(200);
    expect(res.body.balance_cents).toBe(100000);
    expect(res.body.transactions).toEqual([
      expect.objectContaining({ amount_cents: 100000, balance_after_cents: 100000, kind: 'seed' }),
    ]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 12, total: 1, totalPages: 1 });
  });

  it('is newest first and paginates', async () => {
    const sb = await makeSandbox();
    for (const amount of [1, 2, 3, 4, 5]) {
      await sb.http.post(`/__sandbox/wallets/${accounts.broke.email}/fund`).send({ amount_cents: amount });
    }
    const page1 = await sb.http.get('/api/wallet/transactions?limit=2').set('Authorization', keyOf('broke'));
    expect(page1.body.transactions.map((t: { amount_cents: number }) => t.amount_cents)).toEqual([5, 4]);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    const page3 = await sb.http
      .get('/api/wallet/transactions?limit=2&page=3')
      .set('Authorization', keyOf('broke'));
    expect(page3.body.transactions.map((t: { amount_cents: number }) => t.amount_cents)).toEqual([1]);
    expect(page3.body.balance_cents).toBe(15);
    expect(page1.body.transactions[0].balance_after_cents).toBe(15);
  });

  it('needs a credential and rejects a bad page size', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.get('/api/wallet/transactions'), 401);
    expectError(
      await sb.http.get('/api/wallet/transactions?limit=0').set('Authorization', keyOf('buyer')),
      400,
    );
  });
});

describe('POST /__sandbox/wallets/{email}/fund', () => {
  it('credits the wallet through the ledger', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post(`/__sandbox/wallets/${accounts.broke.email}/fund`)
      .send({ amount_cents: 5000 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: accounts.broke.email, balance_cents: 5000, balance_usd: '50.00' });
    const balance = await sb.http.get('/api/wallet/balance').set('Authorization', keyOf('broke'));
    expect(balance.body).toEqual({ balance_cents: 5000, balance_usd: '50.00' });
    expect(ledgerSum(sb, accounts.broke.email)).toBe(5000);
  });

  it('drains with a negative amount but never below zero', async () => {
    const sb = await makeSandbox();
    const url = `/__sandbox/wallets/${accounts.seller.email}/fund`;
    expect((await sb.http.post(url).send({ amount_cents: -2000 })).body.balance_cents).toBe(500);
    expectError(await sb.http.post(url).send({ amount_cents: -501 }), 409, /cannot go below 0/);
    expect(balanceOf(sb, accounts.seller.email)).toBe(500);
  });

  it('answers a missing amount with "Amount required", unknown users with 404', async () => {
    const sb = await makeSandbox();
    const url = `/__sandbox/wallets/${accounts.broke.email}/fund`;
    expectError(await sb.http.post(url).send({}), 400, 'Amount required');
    expectError(await sb.http.post(url), 400, 'Amount required');
    expectError(await sb.http.post(url).send({ amount_cents: 0 }), 400, 'Amount required');
    expectError(await sb.http.post(url).send({ amount_cents: 1.5 }), 400, /amount_cents must be integer/);
    expectError(
      await sb.http.post('/__sandbox/wallets/nobody@sandbox.test/fund').send({ amount_cents: 1 }),
      404,
      'No user with e-mail nobody@sandbox.test',
    );
  });

  it('finds the user whatever the e-mail case', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.post('/__sandbox/wallets/BROKE@Sandbox.test/fund').send({ amount_cents: 7 });
    expect(res.body.balance_cents).toBe(7);
  });
});

describe('GET /__sandbox/accounts', () => {
  it('lists the five test accounts with live balances', async () => {
    const sb = await makeSandbox();
    await sb.http.post(`/__sandbox/wallets/${accounts.broke.email}/fund`).send({ amount_cents: 123 });
    const res = await sb.http.get('/__sandbox/accounts');
    expect(res.status).toBe(200);
    expect(res.body.accounts.map((a: { email: string }) => a.email)).toEqual([
      accounts.buyer.email,
      accounts.broke.email,
      accounts.seller.email,
      accounts.subscriber.email,
      accounts.maxed.email,
    ]);
    expect(res.body.accounts[0]).toMatchObject({ balance_cents: 100000, api_key: accounts.buyer.apiKey });
    expect(res.body.accounts[1]).toMatchObject({ balance_cents: 123, password: accounts.broke.password });
  });
});

describe('referral credit', () => {
  it('posts a referral ledger entry for the referrer', async () => {
    const sb = await makeSandbox();
    const me = await sb.http.get('/api/auth/me').set('Authorization', keyOf('broke'));
    const reg = await sb.http
      .post('/api/auth/register')
      .send({ email: 'friend@example.com', password: 'friend-pass-1', referralCode: me.body.referralCode });
    expect(reg.status).toBe(201);
    const res = await sb.http.get('/api/wallet/transactions').set('Authorization', keyOf('broke'));
    expect(res.body.transactions).toEqual([
      expect.objectContaining({
        kind: 'referral',
        amount_cents: 500,
        balance_after_cents: 500,
        reference: reg.body.user.id,
      }),
    ]);
    expect(res.body.balance_cents).toBe(500);
  });
});
