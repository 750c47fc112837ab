import { describe, expect, it } from 'vitest';
import { accounts, useSandbox } from './support/client.js';

// Interface document, "9. Versioning": "Version identifiers, compatibility rules and deprecation
// policy: not shown." The sandbox's choice (openapi.yaml info; README.md, "What is emulated"): `/api` is v1, and
// every response carries `X-Sandbox-Version`.
const ctx = useSandbox();

describe('9. "Version identifiers, compatibility rules and deprecation policy: not shown." (sandbox choice: /api is v1, X-Sandbox-Version on every response)', () => {
  it('"Version identifiers, compatibility rules and deprecation policy: not shown.": every response carries X-Sandbox-Version, the version the health check reports (sandbox choice)', async () => {
    const health = await ctx.api.get<{ version: string }>('/__sandbox/health');
    const version = health.body.version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const replies = [
      health,
      await ctx.api.get('/api/shop/listings'),
      await ctx.api.get('/api/wallet/balance', { token: accounts.buyer.key }),
      await ctx.api.get('/api/wallet/balance'),
      await ctx.api.get('/api/no/such/path'),
      await ctx.api.get('/locales/shop-en.json'),
      await ctx.api.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password' }),
    ];
    for (const reply of replies) expect(reply.headers.get('x-sandbox-version')).toBe(version);
  });

  it('"All paths below start with /api" (preamble), with no version segment: the one version is /api itself (sandbox choice)', async () => {
    expect((await ctx.api.get('/api/shop/categories')).status).toBe(200);
    expect((await ctx.api.get('/api/v1/shop/categories')).status).toBe(404);
  });
});
