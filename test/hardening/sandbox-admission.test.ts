import { describe, expect, it } from 'vitest';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Class: filling the sandbox cap without the right to use a sandbox. Bringing a sandbox live
 * (seeding it, or loading its file: CPU time and a place under --max-sandboxes) was the
 * first thing a request did, before the admin token and the rate limit were asked: with
 * SANDBOX_ADMIN_TOKEN set, 150 `GET /__sandbox/accounts` without it, each naming a new
 * X-Sandbox-Id, gave 100 × 401 and then 50 × 503, and locked real CI jobs out; `GET
 * /__sandbox/health` (open by design) did the same; public requests over their address's budget
 * were answered 429 after their sandbox was made. Only a request that will be served by the
 * sandbox may now bring it live.
 */
const TOKEN = 'admin-token-for-admission';
const admin = { 'X-Sandbox-Admin-Token': TOKEN };

async function liveIds(sb: TestSandbox): Promise<string[]> {
  const res = await sb.http.get('/__sandbox/sandboxes').set(admin);
  expect(res.status).toBe(200);
  return (res.body.sandboxes as { id: string; live: boolean }[]).filter((s) => s.live).map((s) => s.id);
}

describe('a request may bring a sandbox live only if the sandbox will serve it', () => {
  it('control calls the admin token refuses, and health checks, make no sandbox; a real job still gets one', async () => {
    const sb = await makeSandbox({ adminToken: TOKEN, maxSandboxes: 5 });
    for (let i = 0; i < 12; i += 1) {
      const refused = await sb.http.get('/__sandbox/accounts').set('X-Sandbox-Id', `evil-${i}`);
      expectError(refused, 401, 'The control API needs the X-Sandbox-Admin-Token header');
      expect(refused.headers['x-sandbox-id']).toBe(`evil-${i}`);
      const wrong = await sb.http
        .post('/__sandbox/reset')
        .set({ 'X-Sandbox-Id': `wrong-${i}`, 'X-Sandbox-Admin-Token': 'guess' });
      expectError(wrong, 401, 'Invalid X-Sandbox-Admin-Token');
      // With or without the trailing slash the router also takes for it.
      const health = await sb.http
        .get(`/__sandbox/health${i % 2 ? '/' : ''}`)
        .set('X-Sandbox-Id', `probe-${i}`);
      expect(health.status).toBe(200);
      expect(health.body.status).toBe('ok');
    }
    // Deleting a sandbox, or listing them, never loads the one the call names.
    const deleted = await sb.http.delete('/__sandbox').set({ ...admin, 'X-Sandbox-Id': 'never-used' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, id: 'never-used' });
    const listed = await sb.http.get('/__sandbox/sandboxes').set({ ...admin, 'X-Sandbox-Id': 'lister' });
    expect(listed.body.sandboxes.map((s: { id: string }) => s.id)).toEqual(['default']);
    expect(await liveIds(sb)).toEqual(['default']);
    // Nothing of them was recorded in the default sandbox's journal either (it was only a stand-in).
    const journal = await sb.http.get('/__sandbox/requests?limit=1000').set(admin);
    expect(
      (journal.body.requests as { path: string }[]).filter((r) => r.path !== '/__sandbox/sandboxes'),
    ).toEqual([]);
    // A job with the token, and one of the public API, each get their sandbox at once.
    expect(
      (await sb.http.get('/__sandbox/accounts').set({ ...admin, 'X-Sandbox-Id': 'ci-job' })).status,
    ).toBe(200);
    expect((await sb.http.get('/api/shop/categories').set('X-Sandbox-Id', 'ci-public')).status).toBe(200);
    expect((await liveIds(sb)).sort()).toEqual(['ci-job', 'ci-public', 'default']);
    // A health check of a live sandbox is answered by it, and counted as its use.
    expect((await sb.http.get('/__sandbox/health').set('X-Sandbox-Id', 'ci-job')).status).toBe(200);
  });

  it('a public request over its address budget gets its 429 before any sandbox is made, and counts once', async () => {
    const sb = await makeSandbox({ rateLimit: 10, maxSandboxes: 50 });
    const statuses: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const res = await sb.http.get('/api/shop/categories').set('X-Sandbox-Id', `pub-${i}`);
      statuses.push(res.status);
      // The first request of a new sandbox counts as one request, not two.
      if (i === 0) expect(res.headers.ratelimit).toMatch(/r=9;/);
      if (res.status === 429) {
        expectError(res, 429, 'Too many requests');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.headers['x-sandbox-error-detail']).toMatch(/bringing it live counts as a request/);
      }
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), ...Array<number>(5).fill(429)]);
    expect((await liveIds(sb)).length).toBe(1 + 10);
    // With an API key too: the address's budget is what making a sandbox costs.
    const keyed = await sb.http.get('/api/wallet/balance').set({
      'X-Sandbox-Id': 'pub-keyed',
      Authorization: 'Bearer mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f',
    });
    expectError(keyed, 429, 'Too many requests');
    expect((await liveIds(sb)).length).toBe(1 + 10);
    // A sandbox already live is served as before (counted against the key's own budget).
    const live = await sb.http.get('/api/wallet/balance').set({
      'X-Sandbox-Id': 'pub-1',
      Authorization: 'Bearer mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f',
    });
    expect(live.status).toBe(200);
  });

  it('concurrent first requests of one address cannot pass its budget together', async () => {
    const sb = await makeSandbox({ rateLimit: 5, maxSandboxes: 50 });
    const all = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sb.http.get('/api/shop/categories').set('X-Sandbox-Id', `burst-${i}`),
      ),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(5);
    expect(all.filter((r) => r.status === 429)).toHaveLength(7);
    expect((await liveIds(sb)).length).toBe(1 + 5);
  });

  it('the provider page, before any rate limit, never makes a sandbox its URL names', async () => {
    const sb = await makeSandbox({ maxSandboxes: 50 });
    const page = await sb.http.get(
      '/sandbox/payprovider/00000000-0000-4000-8000-000000000000?sandbox_id=never-made',
    );
    expectError(page, 404, /Payment not found/);
    expect(await liveIds(sb)).toEqual(['default']);
  });
});
