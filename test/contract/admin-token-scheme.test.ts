import { describe, expect, it } from 'vitest';
import { loadSpec, operations } from '../../src/contract/spec.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

type Security = Record<string, string[]>[] | undefined;
const spec = loadSpec() as unknown as {
  paths: Record<string, Record<string, { security?: Security }>>;
  components: { securitySchemes: Record<string, object> };
};
const controlOps = operations().filter((op) => op.path.startsWith('/__sandbox'));
const securityOf = (method: string, path: string) => spec.paths[path][method].security;

describe('X-Sandbox-Admin-Token as a security scheme (openapi.yaml components.securitySchemes.adminToken)', () => {
  it('is an apiKey in the X-Sandbox-Admin-Token header', () => {
    expect(spec.components.securitySchemes.adminToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Sandbox-Admin-Token',
    });
  });

  it('is offered, as optional, on every control operation but the health check', () => {
    expect(controlOps.length).toBeGreaterThan(20);
    for (const op of controlOps) {
      const expected = op.path === '/__sandbox/health' ? [] : [{}, { adminToken: [] }];
      expect(securityOf(op.method, op.path), `${op.method} ${op.path}`).toEqual(expected);
    }
  });

  it('leaves per-operation credentials alone: a control operation takes no user credential', () => {
    for (const op of controlOps) expect([op.path, op.security], op.operationId).toEqual([op.path, []]);
  });
});

describe('who may call the control API is unchanged by the scheme', () => {
  it('without a configured admin token every control call works without one, whatever else is sent', async () => {
    const sb = await makeSandbox();
    expect((await sb.http.get('/__sandbox/scenarios')).status).toBe(200);
    expect((await sb.http.post('/__sandbox/reset')).status).toBe(200);
    // A bad bearer token on a control call is ignored, as before: control calls take no credential.
    const withBadToken = await sb.http.get('/__sandbox/clock').set('Authorization', 'Bearer not-a-token');
    expect(withBadToken.status).toBe(200);
    // An admin token that nobody configured is ignored too.
    const withStrayAdmin = await sb.http.get('/__sandbox/accounts').set('X-Sandbox-Admin-Token', 'anything');
    expect(withStrayAdmin.status).toBe(200);
  });

  it('with a configured admin token the control calls need it, the health check and the public API do not', async () => {
    const sb = await makeSandbox({ adminToken: 'conformance-admin' });
    expectError(await sb.http.get('/__sandbox/clock'), 401);
    const ok = await sb.http.get('/__sandbox/clock').set('X-Sandbox-Admin-Token', 'conformance-admin');
    expect(ok.status).toBe(200);
    expect((await sb.http.get('/__sandbox/health')).status).toBe(200);
    const me = await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    expect(me.status).toBe(200);
  });
});
