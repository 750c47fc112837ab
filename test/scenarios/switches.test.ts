import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

const buyerKey = `Bearer ${accounts.buyer.apiKey}`;
const APPLIED = 'x-sandbox-scenario-applied';

describe('the X-Sandbox-Scenario header', () => {
  it('forces a 500 and says which scenario applied', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/wallet/balance')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'server.error');
    expectError(res, 500, 'Internal server error');
    expect(res.headers[APPLIED]).toBe('server.error');
  });

  it('forces a 503 with Retry-After (default 5, or the parameter)', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'server.unavailable');
    expectError(res, 503, 'Service unavailable');
    expect(res.headers['retry-after']).toBe('5');
    const custom = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'server.unavailable=9');
    expect(custom.headers['retry-after']).toBe('9');
    expect(custom.headers[APPLIED]).toBe('server.unavailable=9');
  });

  it('forces a 429 like the limiter, with Retry-After', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'ratelimit.exceeded');
    expectError(res, 429, 'Too many requests');
    expect(res.headers['retry-after']).toBe('60');
    expect(res.headers.ratelimit).toMatch(/r=0/);
  });

  it('expires the credential on operations that take one, not on public ones', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'auth.token-expired');
    expectError(res, 401, 'Invalid or expired token');
    expect(res.headers[APPLIED]).toBe('auth.token-expired');
    const login = await sb.http
      .post('/api/auth/login')
      .set('X-Sandbox-Scenario', 'auth.token-expired')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    expect(login.status).toBe(200);
    expect(login.headers[APPLIED]).toBeUndefined();
  });

  it('applies listing.not-found only to operations that name a listing', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'listing.not-found');
    expect(res.status).toBe(200);
    expect(res.headers[APPLIED]).toBeUndefined();
  });

  it('adds latency and applies several scenarios at once', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/auth/me')
      .set('Authorization', buyerKey)
      .set('X-Sandbox-Scenario', 'latency=20, server.error');
    expectError(res, 500, 'Internal server error');
    expect(res.headers[APPLIED]).toBe('latency=20, server.error');
  });

  it('drops the connection with network.reset', async () => {
    const sb = await makeSandbox();
    await expect(
      sb.http.get('/api/auth/me').set('Authorization', buyerKey).set('X-Sandbox-Scenario', 'network.reset'),
    ).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('cuts the body with response.truncated', async () => {
    const sb = await makeSandbox();
    await expect(
      sb.http
        .get('/api/auth/me')
        .set('Authorization', buyerKey)
        .set('X-Sandbox-Scenario', 'response.truncated'),
    ).rejects.toThrow();
  });

  it('refuses an unknown name or a bad parameter with 400 listing the valid ones', async () => {
    const sb = await makeSandbox();
    const unknown = await sb.http.get('/api/auth/me').set('X-Sandbox-Scenario', 'wallet.empty');
    expectError(
      unknown,
      400,
      /unknown scenario "wallet.empty"; valid: wallet.insufficient, auth.token-expired, .*latency=<ms>/,
    );
    expectError(
      await sb.http.get('/api/auth/me').set('X-Sandbox-Scenario', 'latency'),
      400,
      /latency needs a parameter/,
    );
    expectError(
      await sb.http.get('/api/auth/me').set('X-Sandbox-Scenario', 'latency=fast'),
      400,
      /whole number of ms/,
    );
    expectError(
      await sb.http.get('/api/auth/me').set('X-Sandbox-Scenario', 'server.error=3'),
      400,
      /takes no parameter/,
    );
  });

  it('never bypasses request validation', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/auth/login')
      .set('X-Sandbox-Scenario', 'server.error')
      .send({ email: 'a@b.c' });
    expectError(res, 400, 'body.password is required');
    expect(res.headers[APPLIED]).toBeUndefined();
  });

  it('leaves control calls alone', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/__sandbox/health').set('X-Sandbox-Scenario', 'server.error');
    expect(res.status).toBe(200);
  });
});

describe('sticky scenarios', () => {
  it('apply to matching requests for a count, then stop', async () => {
    const sb = await makeSandbox();
    const add = await sb.http
      .post('/__sandbox/scenarios')
      .send({ name: 'server.unavailable', scope: { method: 'get', path: '/api/wallet/**' }, count: 2 });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({
      id: 'sw_1',
      name: 'server.unavailable',
      param: 5,
      remaining: 2,
      source: 'api',
      scope: { method: 'GET' },
    });
    expect((await sb.http.get('/api/auth/me').set('Authorization', buyerKey)).status).toBe(200);
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).status).toBe(503);
    expect((await sb.http.get('/__sandbox/scenarios')).body.scenarios[0].remaining).toBe(1);
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).status).toBe(503);
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).status).toBe(200);
    expect((await sb.http.get('/__sandbox/scenarios')).body).toEqual({ scenarios: [] });
  });

  it('can be scoped to a credential or to a user e-mail', async () => {
    const sb = await makeSandbox();
    await sb.http
      .post('/__sandbox/scenarios')
      .send({ name: 'server.error', scope: { credential: accounts.broke.apiKey } });
    await sb.http
      .post('/__sandbox/scenarios')
      .send({ name: 'auth.token-expired', scope: { user: 'SELLER@sandbox.test' } });
    const listed = (await sb.http.get('/__sandbox/scenarios')).body.scenarios;
    expect(listed[0].scope.credential).toBe('mk_test_brok…');
    expect((await sb.http.get('/api/auth/me').set('Authorization', buyerKey)).status).toBe(200);
    expect(
      (await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.broke.apiKey}`)).status,
    ).toBe(500);
    const seller = await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.seller.apiKey}`);
    expectError(seller, 401, 'Invalid or expired token');
  });

  it('accept name=param and are removed one by one or all at once', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/scenarios').send({ name: 'latency=5' });
    await sb.http.post('/__sandbox/scenarios').send({ name: 'latency', param: 6 });
    const res = await sb.http.get('/api/auth/me').set('Authorization', buyerKey);
    expect(res.headers[APPLIED]).toBe('latency=5');
    expect((await sb.http.delete('/__sandbox/scenarios/sw_1')).body).toEqual({ success: true, removed: 1 });
    expectError(await sb.http.delete('/__sandbox/scenarios/sw_1'), 404, 'Scenario switch not found: sw_1');
    expect((await sb.http.delete('/__sandbox/scenarios')).body).toEqual({ success: true, removed: 1 });
  });

  it('refuse unknown names and bad bodies', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.post('/__sandbox/scenarios').send({ name: 'nope' }),
      400,
      /body.name: unknown scenario "nope"; valid: /,
    );
    expectError(
      await sb.http.post('/__sandbox/scenarios').send({ name: 'latency', count: 0 }),
      400,
      /body.count/,
    );
    expectError(
      await sb.http.post('/__sandbox/scenarios').send({ name: 'latency=1', extra: 1 }),
      400,
      'body.extra is not allowed',
    );
  });

  it('are cleared by a reset', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/scenarios').send({ name: 'server.error' });
    await sb.http.post('/__sandbox/reset');
    expect((await sb.http.get('/api/auth/me').set('Authorization', buyerKey)).status).toBe(200);
  });
});

describe('the list of scenarios', () => {
  it('lists every scenario with its parameter, and the shipped files', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/__sandbox/scenarios/catalog');
    expect(res.status).toBe(200);
    const names = res.body.scenarios.map((s: { name: string }) => s.name);
    for (const name of [
      'wallet.insufficient',
      'auth.token-expired',
      'ratelimit.exceeded',
      'server.error',
      'server.unavailable',
      'latency',
      'listing.not-found',
      'provider.cancel',
      'provider.approve',
      'rates.stale',
      'network.reset',
      'response.truncated',
    ]) {
      expect(names).toContain(name);
    }
    expect(res.body.files.length).toBeGreaterThanOrEqual(10);
    expect(res.body.files.every((f: { error: unknown }) => f.error === null)).toBe(true);
  });
});
