import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/process/config.js';
import { behindFastPath } from '../helpers/fast-server.js';
import { accounts, makeSandbox } from '../helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A sandbox behind a real server that records which path answered each request. */
async function served(overrides: Partial<Config> = {}) {
  const sb = await makeSandbox(overrides);
  // One Host for both servers: it is part of the cache key, and bodies hold absolute URLs.
  const server = await behindFastPath(sb, 'sandbox.test');
  closers.push(server.close);
  return { sb, ...server };
}

/** Header names and values that must be the same on a miss and a hit (Date and counters aside). */
function stableHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name !== 'date' && name !== 'ratelimit') out[name] = value;
  return out;
}

describe('fast read path', () => {
  it('answers a repeat of a public GET with the bytes and headers of the full path', async () => {
    const { sb, get, getFull, paths } = await served();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const miss = await getFull('/api/shop/listings?limit=3');
    const hit = await get('/api/shop/listings?limit=3');
    expect(paths).toEqual(['full', 'fast']);
    expect(hit.status).toBe(200);
    expect(hit.text).toBe(miss.text);
    expect(stableHeaders(hit.headers)).toEqual(stableHeaders(miss.headers));
    expect(miss.headers['ratelimit']).toMatch(/^"100-per-minute"; r=99; t=\d+$/);
    expect(hit.headers['ratelimit']).toMatch(/^"100-per-minute"; r=98; t=\d+$/);
    expect(hit.headers['x-sandbox-version']).toBeTruthy();
  });

  it('records fast answers in the request journal like full ones', async () => {
    const { sb, get, getFull, paths } = await served();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    await getFull('/api/shop/listings?limit=2&sort=newest');
    await get('/api/shop/listings?limit=2&sort=newest');
    expect(paths).toEqual(['full', 'fast']);
    const journal = await get('/__sandbox/requests');
    const [fastEntry, fullEntry] = JSON.parse(journal.text).requests as Record<string, unknown>[];
    const strip = ({ id: _id, duration_ms: _d, ...rest }: Record<string, unknown>) => rest;
    expect(strip(fastEntry)).toEqual(strip(fullEntry));
    expect(fastEntry.query).toEqual(fullEntry.query);
    // A cached answer through the full path (an Origin keeps it there) is journaled the same way.
    await get('/api/shop/listings?limit=2&sort=newest', { origin: 'http://app.test' });
    const again = JSON.parse((await get('/__sandbox/requests')).text).requests[0] as Record<string, unknown>;
    expect(again.query).toEqual(fullEntry.query);
    expect(fastEntry.query).toEqual({ limit: '2', sort: 'newest' });
    expect(fastEntry.status).toBe(200);
  });

  it('counts against the same rate limit, and leaves the over-limit request to the full path (429)', async () => {
    const { sb, get, paths } = await served({ rateLimit: 3 });
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/api/shop/categories')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(paths).toEqual(['full', 'fast', 'fast', 'full']);
    const refused = await get('/api/shop/categories');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toEqual({ error: expect.any(String) });
  });

  it('serves each sandbox from its own cache and echoes X-Sandbox-Id', async () => {
    const { get, paths } = await served();
    const headers = { 'x-sandbox-id': 'fast-a' };
    await get('/api/shop/categories', headers);
    const hit = await get('/api/shop/categories', headers);
    await get('/api/shop/categories');
    expect(paths).toEqual(['full', 'fast', 'full']);
    expect(hit.headers['x-sandbox-id']).toBe('fast-a');
    const bad = await get('/api/shop/categories', { 'x-sandbox-id': 'not valid!' });
    expect(bad.status).toBe(400);
    expect(paths[paths.length - 1]).toBe('full');
  });

  it('leaves credentials, scenarios, CORS, conditions, other hosts and writes to the full path', async () => {
    const { sb, get, paths, last } = await served();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    await get('/api/shop/categories');
    await get('/api/shop/categories');
    expect(last()).toBe('fast');
    const cases: Record<string, string>[] = [
      { authorization: `Bearer ${accounts.buyer.apiKey}` },
      { 'x-guest-token': 'anything' },
      { 'x-sandbox-scenario': 'latency=1' },
      { origin: 'http://app.test' },
      // A condition is Express's to answer (its freshness check).
      { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' },
    ];
    for (const headers of cases) {
      await get('/api/shop/categories', headers);
      expect(last(), JSON.stringify(headers)).toBe('full');
    }
    await get(`/api/shop/categories?api_key=${accounts.buyer.apiKey}`);
    expect(last()).toBe('full');
    // Another Host makes other absolute URLs: its own entry, so a miss first.
    await get('/api/shop/categories', { host: 'elsewhere.test' });
    expect(last()).toBe('full');
    // A sticky scenario turns the fast path off for the world.
    await sb.http.post('/__sandbox/scenarios').send({ name: 'latency=1' });
    await get('/api/shop/categories');
    expect(last()).toBe('full');
    await sb.http.delete('/__sandbox/scenarios');
    await get('/api/shop/categories');
    await get('/api/shop/categories');
    expect(last()).toBe('fast');
    // A write empties the cache: the next read is a miss.
    await sb.http.post('/__sandbox/clock').send({ advance: 1 });
    await get('/api/shop/categories');
    expect(last()).toBe('full');
    expect(paths.length).toBeGreaterThan(10);
  });

  it('behind --trust-proxy, takes the scheme and address from the proxy as the full path does', async () => {
    const { sb, get, getFull, paths } = await served({ trustProxy: true, rateLimit: 2 });
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const proxy = (client: string, proto: string) => ({
      'x-forwarded-for': `198.51.100.1, ${client}`,
      'x-forwarded-proto': proto,
    });
    const miss = await getFull('/api/shop/listings?limit=1', proxy('203.0.113.1', 'https'));
    const hit = await get('/api/shop/listings?limit=1', proxy('203.0.113.1', 'https'));
    expect(paths).toEqual(['full', 'fast']);
    expect(hit.text).toBe(miss.text);
    expect(JSON.parse(hit.text).listings[0].images[0]).toMatch(/^https:\/\/sandbox\.test\//);
    // The scheme is in the cache key: the same URL over http is not the https answer.
    const plain = await get('/api/shop/listings?limit=1', proxy('203.0.113.2', 'http'));
    expect(JSON.parse(plain.text).listings[0].images[0]).toMatch(/^http:\/\/sandbox\.test\//);
    // One budget per client address behind the proxy: the third request of 203.0.113.1 is a 429.
    expect((await get('/api/shop/listings?limit=1', proxy('203.0.113.1', 'https'))).status).toBe(429);
  });
});
