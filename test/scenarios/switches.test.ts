import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('scenario switches', () => {
  it('applies a header scenario after validation and says so', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .get('/api/wallet/balance')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`)
      .set('X-Sandbox-Scenario', 'server.error');
    expectError(res, 500, 'Internal server error');
    expect(res.headers['x-sandbox-scenario-applied']).toBe('server.error');
  });
});
