import { describe, expect, it } from 'vitest';
import { redact, redactHeaders } from '../../src/stages/redact.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('the request journal', () => {
  it('records requests newest first, with status, duration, scenario and sandbox id', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    await sb.http
      .get('/api/auth/me')
      .set('X-Sandbox-Scenario', 'server.error')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    const res = await sb.http.get('/__sandbox/requests');
    expect(res.status).toBe(200);
    const [newest, older] = res.body.requests;
    expect(newest).toMatchObject({
      id: 'req_2',
      method: 'GET',
      path: '/api/auth/me',
      status: 500,
      scenario: 'server.error',
      sandbox_id: 'default',
      response_body: { error: 'Internal server error' },
    });
    expect(older).toMatchObject({ id: 'req_1', status: 200, scenario: null, request_body: null });
    expect(older.response_body.email).toBe(accounts.buyer.email);
    expect(typeof newest.duration_ms).toBe('number');
    expect(newest.at).toBe(sb.world.clock.nowIso().slice(0, 4) + newest.at.slice(4));
  });

  it('redacts credentials, passwords and tokens', async () => {
    const sb = await makeSandbox();
    await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    await sb.http.get(`/api/auth/me?api_key=${accounts.buyer.apiKey}`).set('X-Guest-Token', 'abc');
    await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.broke.apiKey}`);
    const text = JSON.stringify((await sb.http.get('/__sandbox/requests')).body);
    for (const secret of [accounts.buyer.password, accounts.buyer.apiKey, accounts.broke.apiKey])
      expect(text).not.toContain(secret);
    const [me2, me1, login] = (await sb.http.get('/__sandbox/requests')).body.requests;
    expect(login.request_body).toEqual({ email: accounts.buyer.email, password: '[REDACTED]' });
    expect(login.response_body.token).toBe('[REDACTED]');
    expect(me1.query).toEqual({ api_key: '[REDACTED]' });
    expect(me1.request_headers['x-guest-token']).toBe('[REDACTED]');
    expect(me2.request_headers.authorization).toBe('[REDACTED]');
  });

  it('filters by method, path pattern, status, class and since, and limits', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/auth/me');
    await sb.http.post('/api/auth/login').send({ email: 'a@b.c', password: 'wrong-pass' });
    await sb.http.get('/api/wallet/balance').set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    const list = async (q: string) =>
      (await sb.http.get(`/__sandbox/requests?${q}`)).body.requests.map((r: { id: string }) => r.id);
    expect(await list('method=post')).toEqual(['req_2']);
    expect(await list('path=/api/auth/*')).toEqual(['req_2', 'req_1']);
    expect(await list('path=/api/**')).toEqual(['req_3', 'req_2', 'req_1']);
    expect(await list('status=200')).toEqual(['req_3']);
    expect(await list('status=4xx')).toEqual(['req_2', 'req_1']);
    expect(await list('since=req_1')).toEqual(['req_3', 'req_2']);
    expect(await list('since=2000-01-01T00:00:00Z&limit=1')).toEqual(['req_3']);
    expect(await list('since=2999-01-01T00:00:00Z')).toEqual([]);
    expectError(await sb.http.get('/__sandbox/requests?since=yesterday'), 400, /query.since/);
    expectError(await sb.http.get('/__sandbox/requests?status=600'), 400, /query.status/);
    expectError(await sb.http.get('/__sandbox/requests?limit=0'), 400, /query.limit/);
  });

  it('reads one entry, and empties on DELETE and on reset', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/auth/me');
    expect((await sb.http.get('/__sandbox/requests/req_1')).body.path).toBe('/api/auth/me');
    expectError(
      await sb.http.get('/__sandbox/requests/req_99'),
      404,
      'Request not found in the journal: req_99',
    );
    expect((await sb.http.delete('/__sandbox/requests')).body).toEqual({ success: true, removed: 1 });
    expect((await sb.http.get('/__sandbox/requests')).body.requests).toEqual([]);
    await sb.http.get('/api/auth/me');
    await sb.http.post('/__sandbox/reset');
    const after = (await sb.http.get('/__sandbox/requests')).body.requests;
    expect(after.map((r: { path: string }) => r.path)).toEqual(['/__sandbox/reset']);
  });

  it('is a bounded ring buffer, and off at size 0', async () => {
    const sb = await makeSandbox({ journalSize: 2 });
    const ids = async () =>
      (await sb.http.get('/__sandbox/requests')).body.requests.map((r: { id: string }) => r.id);
    for (let i = 0; i < 4; i++) await sb.http.get('/api/auth/me');
    expect(await ids()).toEqual(['req_4', 'req_3']);
    await sb.http.get('/api/auth/me'); // the ring's start is now mid-buffer
    expect(await ids()).toEqual(['req_5', 'req_4']);
    expect((await sb.http.get('/__sandbox/requests/req_3')).status).toBe(404);
    const off = await makeSandbox({ journalSize: 0 });
    await off.http.get('/api/auth/me');
    expect((await off.http.get('/__sandbox/requests')).body.requests).toEqual([]);
  });

  it('keeps a note instead of bodies over 64 KB', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/api/auth/login').send({ email: 'a@b.c', password: 'x'.repeat(70_000) });
    const [entry] = (await sb.http.get('/__sandbox/requests')).body.requests;
    expect(entry.request_body).toMatch(/^\[\d+ bytes, not kept\]$/);
  });

  it('notes the size in bytes of an answer over 64 KB', async () => {
    const sb = await makeSandbox();
    // 15 listings of 5,000 characters of description, 10,000 bytes each in UTF-8.
    for (let i = 0; i < 15; i++) {
      const res = await sb.http
        .post('/api/shop/listings')
        .set('Authorization', `Bearer ${accounts.seller.apiKey}`)
        .send({
          type: 'mall',
          title: `Zqxlong ${i}`,
          category: 'electronics',
          price_cents: 100,
          description: 'é'.repeat(5000),
        });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // Twice: the second is answered from the answer cache, and the journal notes it the same way.
    for (const _ of [1, 2]) {
      const page = await sb.http.get('/api/shop/listings?q=zqxlong&limit=50');
      expect(page.body.listings).toHaveLength(15);
      const bytes = Number(page.headers['content-length']);
      expect(bytes).toBeGreaterThan(150_000);
      const [entry] = (await sb.http.get('/__sandbox/requests')).body.requests;
      expect(entry.path).toBe('/api/shop/listings');
      expect(entry.response_body).toBe(`[${bytes} bytes, not kept]`);
    }
  });

  it('records a dropped connection with a null status', async () => {
    const sb = await makeSandbox();
    await sb.http
      .get('/api/auth/me')
      .set({ 'X-Sandbox-Scenario': 'network.reset', Authorization: `Bearer ${accounts.buyer.apiKey}` })
      .catch(() => undefined);
    const [entry] = (await sb.http.get('/__sandbox/requests')).body.requests;
    expect(entry).toMatchObject({ status: null, scenario: 'network.reset' });
  });
});

describe('redaction helpers', () => {
  it('redact secret-named fields at any depth, keeping the rest', () => {
    expect(
      redact({ a: 1, nested: [{ newPassword: 'x', apiKey: 'k', key: 'k', name: 'n' }], resetToken: 't' }),
    ).toEqual({
      a: 1,
      nested: [{ newPassword: '[REDACTED]', apiKey: '[REDACTED]', key: '[REDACTED]', name: 'n' }],
      resetToken: '[REDACTED]',
    });
    expect(redactHeaders({ Authorization: 'Bearer x', accept: ['a', 'b'], cookie: 'c' })).toEqual({
      Authorization: '[REDACTED]',
      accept: 'a, b',
      cookie: '[REDACTED]',
    });
  });
});
