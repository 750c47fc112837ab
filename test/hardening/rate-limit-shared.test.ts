import { describe, expect, it } from 'vitest';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Issue 14, Access: "The rate limit of an address must hold across sandboxes": rotating
// X-Sandbox-Id gave one address 1000 requests a minute. The per-address and per-key counters are
// the process's: one address (or one API key) has one budget, whichever sandbox it names.

async function statusesOf(sb: TestSandbox, sandboxes: string[], headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  for (const id of sandboxes)
    statuses.push((await sb.http.get('/api/auth/me').set({ ...headers, 'X-Sandbox-Id': id })).status);
  return statuses;
}

const ids = (n: number, prefix = 'job') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('rate limits across sandboxes', () => {
  it('gives one address one budget, whichever sandbox each request names', async () => {
    const sb = await makeSandbox({ rateLimit: 5 });
    const statuses = await statusesOf(sb, ['default', ...ids(7)]);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const last = await sb.http.get('/api/auth/me').set('X-Sandbox-Id', 'job-new');
    expect(last.headers.ratelimit).toMatch(/^"5-per-minute"; r=0; t=\d+$/);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts cached answers (the fast read path) against the same budget', async () => {
    const sb = await makeSandbox({ rateLimit: 3 });
    const statuses: number[] = [];
    for (const id of ['a', 'a', 'b', 'b', 'a'])
      statuses.push((await sb.http.get('/api/shop/categories').set('X-Sandbox-Id', id)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('gives one API key one budget in every sandbox that knows it', async () => {
    const sb = await makeSandbox({ rateLimit: 0, rateLimitApiKey: 3 });
    const key = { Authorization: `Bearer ${accounts.buyer.apiKey}` };
    expect(await statusesOf(sb, ['a', 'b', 'c', 'd'], key)).toEqual([200, 200, 200, 429]);
    // Another key keeps its own budget.
    const other = { Authorization: `Bearer ${accounts.broke.apiKey}` };
    expect(await statusesOf(sb, ['d'], other)).toEqual([200]);
  });

  it('does not start over in a sandbox whose clock is behind, nor when another sandbox moves its clock', async () => {
    const sb = await makeSandbox({ rateLimit: 2 });
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'first').send({ freeze: true });
    expect(await statusesOf(sb, ['first', 'first'])).toEqual([401, 401]);
    // A new sandbox starts at the seed's start, far behind: its clock does not end the window.
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'behind').send({ freeze: true });
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'ahead').send({ advance: '2d' });
    expect(await statusesOf(sb, ['behind', 'ahead', 'first'])).toEqual([429, 429, 429]);
    // The clock of the sandbox the window started in ends it, as in one sandbox.
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'first').send({ advance: '1m' });
    expect(await statusesOf(sb, ['behind', 'ahead', 'first'])).toEqual([401, 401, 429]);
  });

  it('ends the window when the sandbox it started in is reset or deleted', async () => {
    const sb = await makeSandbox({ rateLimit: 1 });
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'gone').send({ freeze: true });
    expect(await statusesOf(sb, ['gone', 'other'])).toEqual([401, 429]);
    await sb.http.post('/__sandbox/reset').set('X-Sandbox-Id', 'gone');
    expect(await statusesOf(sb, ['gone', 'other'])).toEqual([401, 429]);
    await sb.http.post('/__sandbox/clock').set('X-Sandbox-Id', 'gone').send({ freeze: true });
    expect((await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'gone')).status).toBe(200);
    expect(await statusesOf(sb, ['other', 'other'])).toEqual([401, 429]);
  });

  it("gives a reset's caller a fresh budget, and a refused reset nothing", async () => {
    const sb = await makeSandbox({ rateLimit: 2, adminToken: 'admin-token-of-this-test' });
    const admin = { 'X-Sandbox-Admin-Token': 'admin-token-of-this-test' };
    expect(await statusesOf(sb, ['a', 'b', 'c'])).toEqual([401, 401, 429]);
    // Without the token the reset is refused: the budget stays spent.
    expect((await sb.http.post('/__sandbox/reset').set('X-Sandbox-Id', 'fresh')).status).toBe(401);
    expect(await statusesOf(sb, ['a'])).toEqual([429]);
    // A harness resetting its (other, unused) sandbox between tests starts with a whole budget.
    expect((await sb.http.post('/__sandbox/reset').set({ ...admin, 'X-Sandbox-Id': 'fresh' })).status).toBe(
      200,
    );
    expect(await statusesOf(sb, ['fresh', 'a', 'b'])).toEqual([401, 401, 429]);
  });
});
