import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/contract/spec.js';
import { addListing } from '../money/helpers.js';
import { accounts, makeSandbox } from '../helpers/sandbox.js';

// A HEAD is answered as its GET without the body (RFC 9110 9.3.2), on every GET operation of
// openapi.yaml (src/contract/validator.ts `headAsGet`; openapi.yaml info, docs/errors.md).
const SAME_HEADERS = ['content-type', 'content-length', 'x-sandbox-version', 'x-sandbox-warning', 'etag'];

describe('HEAD on a GET operation', () => {
  it('answers the GET status and headers without a body, on the public API, the locale files and the control API', async () => {
    const sb = await makeSandbox();
    const { id } = addListing(sb);
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    for (const path of [
      '/api/shop/listings?limit=3&_=1',
      '/api/shop/categories',
      `/api/shop/listings/${id}`,
      '/locales/shop-de.json',
      '/__sandbox/health',
      '/api/wallet/exchange-rates',
    ]) {
      const get = await sb.http.get(path);
      const head = await sb.http.head(path);
      expect([path, head.status]).toEqual([path, get.status]);
      for (const name of SAME_HEADERS)
        expect([path, name, head.headers[name]]).toEqual([path, name, get.headers[name]]);
      expect([path, head.text ?? '']).toEqual([path, '']);
    }
  });

  it('judges the request as its GET: a bad query is a 400, a missing credential a 401, an unknown id a 404, all without a body', async () => {
    const sb = await makeSandbox();
    const cases: [string, number][] = [
      ['/api/shop/listings?type=boat', 400],
      ['/api/wallet/balance', 401],
      ['/api/shop/listings/abcdef01-2345-4678-9abc-def012345678', 404],
    ];
    for (const [path, status] of cases) {
      const head = await sb.http.head(path);
      expect([path, head.status, head.text ?? '']).toEqual([path, status, '']);
    }
    const key = `Bearer ${accounts.buyer.apiKey}`;
    expect((await sb.http.head('/api/wallet/balance').set('Authorization', key)).status).toBe(200);
  });

  it('is recorded in the journal as HEAD, without a response body', async () => {
    const sb = await makeSandbox();
    await sb.http.head('/api/shop/categories');
    const [entry] = (await sb.http.get('/__sandbox/requests?limit=1')).body.requests;
    expect(entry).toMatchObject({
      method: 'HEAD',
      path: '/api/shop/categories',
      status: 200,
      response_body: null,
    });
  });

  it('is named beside GET in a 405 Allow and in the CORS preflight', async () => {
    const sb = await makeSandbox();
    const refused = await sb.http.delete('/api/shop/categories');
    expect([refused.status, refused.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect(refused.body.error).toBe('Method DELETE not allowed on /api/shop/categories; allowed: GET, HEAD');
    const preflight = await sb.http
      .options('/api/shop/categories')
      .set({ Origin: 'http://app.test', 'Access-Control-Request-Method': 'HEAD' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/\bHEAD\b/);
  });

  it('is answered on every GET operation without a path parameter (none is a 405)', async () => {
    const sb = await makeSandbox();
    const spec = loadSpec() as unknown as { paths: Record<string, { get?: unknown }> };
    const paths = Object.keys(spec.paths).filter((p) => spec.paths[p].get && !p.includes('{'));
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) {
      const head = await sb.http.head(path).set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
      expect([path, head.status === 405, head.text ?? '']).toEqual([path, false, '']);
      expect([path, head.status]).toEqual([
        path,
        (await sb.http.get(path).set('Authorization', `Bearer ${accounts.buyer.apiKey}`)).status,
      ]);
    }
  });
});
