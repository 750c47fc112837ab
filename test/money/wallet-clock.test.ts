import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('wallet balance', () => {
  it('shows cents and a two-decimal USD string for each test account', async () => {
    const sb = await makeSandbox();
    const cases: [string, number, string][] = [
      [accounts.buyer.apiKey, 100000, '1000.00'],
      [accounts.broke.apiKey, 0, '0.00'],
      [accounts.seller.apiKey, 2500, '25.00'],
    ];
    for (const [key, cents, usd] of cases) {
      const res = await sb.http.get('/api/wallet/balance').set('Authorization', `Bearer ${key}`);
      expect(res.body).toEqual({ balance_cents: cents, balance_usd: usd });
    }
  });
});

describe('sandbox clock', () => {
  it('starts at the configured instant and advances by durations', async () => {
    const sb = await makeSandbox({ clockStart: '2026-03-01T00:00:00.000Z' });
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const start = Date.parse((await sb.http.get('/__sandbox/clock')).body.now);
    expect(start - Date.parse('2026-03-01T00:00:00.000Z')).toBeLessThan(60_000);
    const res = await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    expect(res.body).toEqual({ now: new Date(start + 25 * 3_600_000).toISOString(), frozen: true });
    const ms = await sb.http.post('/__sandbox/clock').send({ advance: 1500 });
    expect(Date.parse(ms.body.now)).toBe(start + 25 * 3_600_000 + 1500);
  });

  it('sets, freezes and unfreezes', async () => {
    const sb = await makeSandbox();
    const set = await sb.http
      .post('/__sandbox/clock')
      .send({ set: '2027-05-05T05:05:05.000Z', freeze: true });
    expect(set.body).toEqual({ now: '2027-05-05T05:05:05.000Z', frozen: true });
    expect((await sb.http.get('/__sandbox/clock')).body.now).toBe('2027-05-05T05:05:05.000Z');
    const unfrozen = await sb.http.post('/__sandbox/clock').send({ freeze: false });
    expect(unfrozen.body.frozen).toBe(false);
  });

  it('refuses bad changes and leaves the clock as it was', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ set: '2026-02-02T00:00:00.000Z', freeze: true });
    expectError(
      await sb.http.post('/__sandbox/clock').send({ advance: 'soon' }),
      400,
      /body\.advance must be a positive duration/,
    );
    expectError(await sb.http.post('/__sandbox/clock').send({ advance: -5 }), 400, /body\.advance/);
    expectError(
      await sb.http.post('/__sandbox/clock').send({ set: 'yesterday' }),
      400,
      'body.set must be an ISO 8601 date-time',
    );
    expectError(
      await sb.http.post('/__sandbox/clock').send({ advance: '1h', set: '2026-01-01T00:00:00Z' }),
      400,
      'body: give advance or set, not both',
    );
    expectError(await sb.http.post('/__sandbox/clock').send({}), 400);
    expectError(
      await sb.http.post('/__sandbox/clock').send({ advance: '1h', freeze: 'yes' }),
      400,
      /body\.freeze must be boolean/,
    );
    expect((await sb.http.get('/__sandbox/clock')).body).toEqual({
      now: '2026-02-02T00:00:00.000Z',
      frozen: true,
    });
  });
});

describe('reset', () => {
  it('brings back the seeded data and the clock', async () => {
    // Pinned, so the seed's start is known (unpinned, it is the wall time: clock-start.test.ts).
    const sb = await makeSandbox({ clockStart: '2026-01-01T00:00:00.000Z' });
    await sb.http.post('/api/auth/register').send({ email: 'temp@example.com', password: 'longenough' });
    await sb.http.post('/__sandbox/clock').send({ advance: '10d', freeze: true });
    const res = await sb.http.post('/__sandbox/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, seed: 42, clock: { now: expect.any(String), frozen: false } });
    // The clock runs again from the seed's start (a few milliseconds may pass before the answer).
    expect(Date.parse(res.body.clock.now) - Date.parse('2026-01-01T00:00:00.000Z')).toBeLessThan(5_000);
    expectError(
      await sb.http.post('/api/auth/login').send({ email: 'temp@example.com', password: 'longenough' }),
      401,
    );
    expect(
      (await sb.http.get('/api/wallet/balance').set('Authorization', `Bearer ${accounts.buyer.apiKey}`)).body
        .balance_cents,
    ).toBe(100000);
  });
});
