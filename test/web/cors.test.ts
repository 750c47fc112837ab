import { describe, expect, it } from 'vitest';
import { parseOrigins } from '../../src/web/cors.js';
import { expectDetailedError, expectError, makeSandbox } from '../helpers/sandbox.js';

const preflight = (sb: Awaited<ReturnType<typeof makeSandbox>>, origin: string) =>
  sb.http
    .options('/api/auth/login')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'authorization, content-type, x-sandbox-scenario');

describe('CORS for browser clients', () => {
  it('is on by default: a preflight is answered 204 with methods, headers and max age', async () => {
    const sb = await makeSandbox();
    const res = await preflight(sb, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toBe(
      'authorization, content-type, x-sandbox-scenario',
    );
    expect(res.headers['access-control-max-age']).toBe('600');
  });

  it('lets a browser read the rate-limit, retry and sandbox headers of a response, warnings and error details too', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/__sandbox/health').set('Origin', 'http://localhost:5173');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = res.headers['access-control-expose-headers'] as string;
    for (const name of [
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'X-Sandbox-Version',
      'X-Sandbox-Scenario-Applied',
      'X-Sandbox-Warning',
      'X-Sandbox-Error-Detail',
    ])
      expect(exposed).toContain(name);
  });

  it('keeps CORS headers on error responses', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.post('/api/auth/login').set('Origin', 'http://a.test').send({});
    expectError(res, 400);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('adds nothing to a request without an Origin', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/__sandbox/health');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('echoes an allowed origin from a configured list, and refuses the preflight of another', async () => {
    const sb = await makeSandbox({ corsOrigins: 'http://localhost:5173, https://app.test' });
    const ok = await preflight(sb, 'https://app.test');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.test');
    expect(ok.headers.vary).toContain('Origin');
    expectDetailedError(
      await preflight(sb, 'https://evil.test'),
      403,
      'Not authorized',
      'Origin https://evil.test is not allowed by --cors-origins',
    );
    const simple = await sb.http.get('/__sandbox/health').set('Origin', 'https://evil.test');
    expect(simple.status).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('can be switched off: no headers, and OPTIONS is not an operation', async () => {
    const sb = await makeSandbox({ corsOrigins: 'off' });
    const res = await preflight(sb, 'http://localhost:5173');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expectError(res, 405);
  });

  it('parses the --cors-origins forms and rejects anything else', () => {
    expect(parseOrigins('*')).toEqual({ kind: 'any' });
    expect(parseOrigins('off')).toEqual({ kind: 'off' });
    expect(parseOrigins('http://a.test/, https://b.test:8443')).toEqual({
      kind: 'list',
      origins: new Set(['http://a.test', 'https://b.test:8443']),
    });
    expect(parseOrigins('a.test')).toMatch(/--cors-origins must be/);
    expect(parseOrigins('http://a.test/path')).toMatch(/--cors-origins must be/);
  });
});
