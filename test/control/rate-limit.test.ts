import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/world/clock.js';
import { RateCounters } from '../../src/stages/rate-limit.js';
import type { World } from '../../src/world/world.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

async function spend(sb: TestSandbox, n: number, set: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await sb.http.get('/api/auth/me').set(set)).status);
  return statuses;
}

describe('rate limits', () => {
  it('answers the 101st anonymous request of a minute with 429, and not before', async () => {
    const sb = await makeSandbox();
    const statuses = await spend(sb, 100);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const res = await sb.http.get('/api/auth/me');
    expectError(res, 429, 'Too many requests');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers.ratelimit).toMatch(/^"100-per-minute"; r=0; t=\d+$/);
    expect(res.headers['ratelimit-policy']).toMatch(/^"100-per-minute"; q=100; w=60; pk=:/);
  });

  it('puts RateLimit headers on every public response, counting down', async () => {
    const sb = await makeSandbox();
    const first = await sb.http.post('/api/auth/login').send({ email: 'x@y.z', password: 'whatever1' });
    expect(first.headers.ratelimit).toMatch(/r=99;/);
    const second = await sb.http.get('/nope');
    expect(second.headers.ratelimit).toMatch(/r=98;/);
  });

  it('gives a verified API key its own budget, keyed by the key', async () => {
    const sb = await makeSandbox({ rateLimit: 2, rateLimitApiKey: 3 });
    await spend(sb, 3);
    const key = { Authorization: `Bearer ${accounts.buyer.apiKey}` };
    expect(await spend(sb, 4, key)).toEqual([200, 200, 200, 429]);
    expect(await spend(sb, 1, { Authorization: `Bearer ${accounts.broke.apiKey}` })).toEqual([200]);
    // An unverified key counts against the address, so made-up keys cannot buy a bigger budget.
    expect(await spend(sb, 1, { Authorization: 'Bearer mk_test_made_up_key_123456' })).toEqual([429]);
  });

  it('counts the api_key query parameter like the header', async () => {
    const sb = await makeSandbox({ rateLimitApiKey: 1 });
    expect((await sb.http.get(`/api/auth/me?api_key=${accounts.buyer.apiKey}`)).status).toBe(200);
    expect(
      (await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.buyer.apiKey}`)).status,
    ).toBe(429);
  });

  it('ends the window when the sandbox clock moves a minute on', async () => {
    const sb = await makeSandbox({ rateLimit: 1 });
    // Frozen, so wall time spent by a slow machine cannot end the window early.
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    expect(await spend(sb, 2)).toEqual([401, 429]);
    await sb.http.post('/__sandbox/clock').send({ advance: '59s' });
    expect(await spend(sb, 1)).toEqual([429]);
    await sb.http.post('/__sandbox/clock').send({ advance: '1s' });
    expect(await spend(sb, 2)).toEqual([401, 429]);
  });

  it('is cleared by a reset and never limits control calls', async () => {
    const sb = await makeSandbox({ rateLimit: 1 });
    expect(await spend(sb, 2)).toEqual([401, 429]);
    const health = await sb.http.get('/__sandbox/health');
    expect(health.status).toBe(200);
    expect(health.headers.ratelimit).toBeUndefined();
    await sb.http.post('/__sandbox/reset');
    expect(await spend(sb, 1)).toEqual([401]);
  });

  it('is off when the limit is 0', async () => {
    const sb = await makeSandbox({ rateLimit: 0 });
    const res = await sb.http.get('/api/auth/me');
    expect(res.headers.ratelimit).toBeUndefined();
    expect(await spend(sb, 3)).toEqual([401, 401, 401]);
  });

  it('ignores X-Forwarded-For unless --trust-proxy is given', async () => {
    const plain = await makeSandbox({ rateLimit: 1 });
    expect(await spend(plain, 2, { 'X-Forwarded-For': '203.0.113.1' })).toEqual([401, 429]);
    expect(await spend(plain, 1, { 'X-Forwarded-For': '203.0.113.2' })).toEqual([429]);
    const proxied = await makeSandbox({ rateLimit: 1, trustProxy: true });
    expect(await spend(proxied, 2, { 'X-Forwarded-For': '203.0.113.1' })).toEqual([401, 429]);
    expect(await spend(proxied, 1, { 'X-Forwarded-For': '203.0.113.2' })).toEqual([401]);
  });

  it('behind --trust-proxy, trusts the one proxy in front: a forged left-most address buys nothing', async () => {
    const proxied = await makeSandbox({ rateLimit: 1, trustProxy: true });
    // What nginx sends for a client at 203.0.113.9 that wrote its own X-Forwarded-For.
    const forged = (n: number) => ({ 'X-Forwarded-For': `198.51.100.${n}, 203.0.113.9` });
    expect(await spend(proxied, 1, forged(1))).toEqual([401]);
    expect(await spend(proxied, 1, forged(2))).toEqual([429]);
    expect(await spend(proxied, 1, { 'X-Forwarded-For': '203.0.113.10' })).toEqual([401]);
  });
});

describe('RateCounters', () => {
  it('counts in fixed windows on the clock of the world a window started in', () => {
    const clock = createClock({ now: '2026-01-01T00:00:00.000Z', frozen: true });
    const other = createClock({ now: '2025-01-01T00:00:00.000Z', frozen: true });
    const world = { id: 'a', clock } as World;
    const elsewhere = { id: 'b', clock: other } as World;
    let live = true;
    const counters = new RateCounters((w) => live || w !== world);
    expect(counters.increment('a', world).totalHits).toBe(1);
    // A world whose clock is a year behind counts in the same window: it does not start over.
    expect(counters.increment('a', elsewhere).totalHits).toBe(2);
    other.advance(400 * 86_400_000);
    expect(counters.increment('a', elsewhere).totalHits).toBe(3);
    expect(counters.increment('b', world).totalHits).toBe(1);
    clock.advance(60_000);
    expect(counters.increment('a', world).totalHits).toBe(1);
    clock.advance(-1000);
    expect(counters.increment('a', world).totalHits).toBe(1);
    counters.endWindowsOf(world);
    expect(counters.increment('b', world).totalHits).toBe(1);
    live = false;
    expect(counters.increment('b', elsewhere).totalHits).toBe(1);
  });
});
