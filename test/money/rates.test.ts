import { describe, expect, it } from 'vitest';
import { computeRates, RATE_WINDOW_MS, walkDeviation, windowStart } from '../../src/api/wallet/rates.js';
import { currencyFixture } from '../../src/api/wallet/rates.js';
import { makeSandbox } from '../helpers/sandbox.js';
import { freeze } from './helpers.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

describe('GET /api/wallet/exchange-rates', () => {
  it('covers the 84 wallet currencies and the fiat and crypto codes they pair with', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/wallet/exchange-rates');
    expect(res.status).toBe(200);
    const codes = Object.keys(res.body.rates);
    const wallet = codes.filter((c) => c.startsWith('Credit-'));
    expect(wallet).toHaveLength(84);
    for (const code of wallet) {
      const pair = code.slice('Credit-'.length);
      expect(res.body.rates[pair], pair).toBeDefined();
      expect(res.body.rates[code].rate).toBe(res.body.rates[pair].rate);
    }
    expect(codes).toHaveLength(168);
    expect(res.body.rates.USD).toEqual({ rate: 1 });
    expect(res.body.rates['Credit-USD']).toEqual({ rate: 1 });
    expect(res.body.base).toBe('USD');
  });

  it('gives updated_at = start of the 30-minute window and refreshes in the next window', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ set: '2026-03-01T10:44:00.000Z', freeze: true });
    const first = await sb.http.get('/api/wallet/exchange-rates');
    expect(first.body.updated_at).toBe('2026-03-01T10:30:00.000Z');
    await sb.http.post('/__sandbox/clock').send({ advance: '15m' });
    const same = await sb.http.get('/api/wallet/exchange-rates');
    expect(same.body).toEqual(first.body);
    await sb.http.post('/__sandbox/clock').send({ advance: '1m' });
    const next = await sb.http.get('/api/wallet/exchange-rates');
    expect(next.body.updated_at).toBe('2026-03-01T11:00:00.000Z');
    expect(next.body.rates.EUR.rate).not.toBe(first.body.rates.EUR.rate);
    // A small step: well under 1% between consecutive windows.
    expect(Math.abs(next.body.rates.EUR.rate / first.body.rates.EUR.rate - 1)).toBeLessThan(0.01);
  });

  it('is the same for the same seed and differs for another seed', async () => {
    const a = await makeSandbox({ seed: 1 });
    const b = await makeSandbox({ seed: 1 });
    const c = await makeSandbox({ seed: 2 });
    for (const sb of [a, b, c]) await freeze(sb);
    for (const sb of [a, b, c]) await sb.http.post('/__sandbox/clock').send({ set: '2026-02-02T02:02:00Z' });
    const [ra, rb, rc] = await Promise.all([a, b, c].map((sb) => sb.http.get('/api/wallet/exchange-rates')));
    expect(ra.body).toEqual(rb.body);
    expect(rc.body.rates.EUR.rate).not.toBe(ra.body.rates.EUR.rate);
  });

  it('is public, and ignores unknown query parameters and a bad credential with a warning', async () => {
    const sb = await makeSandbox();
    const unknown = await sb.http.get('/api/wallet/exchange-rates?x=1');
    expect([unknown.status, unknown.headers['x-sandbox-warning']]).toEqual([
      200,
      'unknown query parameter "x" ignored',
    ]);
    const res = await sb.http.get('/api/wallet/exchange-rates').set('Authorization', 'Bearer nope');
    expect(res.status).toBe(200);
    expect(res.headers['x-sandbox-warning']).toMatch(/answered as anonymous/);
  });
});

describe('the seeded walk (unit)', () => {
  it('windows are 30 minutes', () => {
    expect(RATE_WINDOW_MS).toBe(1_800_000);
    expect(windowStart(START + 29 * 60_000)).toBe(START);
    expect(windowStart(START + 30 * 60_000)).toBe(START + RATE_WINDOW_MS);
  });

  it('stays within ±3% of the fixture rate, even years away, and moves by small steps', () => {
    const base = START / RATE_WINDOW_MS;
    let previous = walkDeviation(42, 'EUR', base);
    for (let w = base + 1; w < base + 2000; w++) {
      const d = walkDeviation(42, 'EUR', w);
      expect(Math.abs(d)).toBeLessThanOrEqual(0.0275 + 1e-12);
      expect(Math.abs(d - previous)).toBeLessThan(0.01); // at most 4 × AMPLITUDE per window
      previous = d;
    }
    const far = computeRates(42, Date.parse('2040-06-01T00:00:00Z'));
    const fixture = currencyFixture().fiat.find((f) => f.code === 'JPY')!.usd_rate;
    expect(Math.abs(far.rates.get('JPY')! / fixture - 1)).toBeLessThan(0.03);
    expect(far.updatedAt).toBe('2040-06-01T00:00:00.000Z');
  });
});
