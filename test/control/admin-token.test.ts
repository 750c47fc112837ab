import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('the admin token', () => {
  it('guards every control call when set', async () => {
    const sb = await makeSandbox({ adminToken: 's3cret-admin' });
    expectError(
      await sb.http.get('/__sandbox/scenarios'),
      401,
      'The control API needs the X-Sandbox-Admin-Token header',
    );
    expectError(
      await sb.http.post('/__sandbox/reset'),
      401,
      'The control API needs the X-Sandbox-Admin-Token header',
    );
    expectError(
      await sb.http.get('/__sandbox/requests').set('X-Sandbox-Admin-Token', 'wrong'),
      401,
      'Invalid X-Sandbox-Admin-Token',
    );
    const ok = await sb.http.get('/__sandbox/scenarios').set('X-Sandbox-Admin-Token', 's3cret-admin');
    expect(ok.status).toBe(200);
  });

  it('leaves the public API and the health check open', async () => {
    const sb = await makeSandbox({ adminToken: 's3cret-admin' });
    expect((await sb.http.get('/__sandbox/health')).status).toBe(200);
    expect(
      (await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.buyer.apiKey}`)).status,
    ).toBe(200);
  });

  it('is not needed when not set', async () => {
    const sb = await makeSandbox();
    expect((await sb.http.get('/__sandbox/scenarios')).status).toBe(200);
  });

  it('is redacted in the journal', async () => {
    const sb = await makeSandbox({ adminToken: 's3cret-admin' });
    await sb.http.get('/__sandbox/scenarios').set('X-Sandbox-Admin-Token', 's3cret-admin');
    const res = await sb.http.get('/__sandbox/requests').set('X-Sandbox-Admin-Token', 's3cret-admin');
    expect(res.body.requests[0].request_headers['x-sandbox-admin-token']).toBe('[REDACTED]');
    expect(JSON.stringify(res.body)).not.toContain('s3cret-admin');
  });
});
