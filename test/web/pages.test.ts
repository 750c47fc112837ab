import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectError, makeSandbox } from '../helpers/sandbox.js';

describe('interactive docs and the served contract', () => {
  it('serves /docs as a Swagger UI page with its assets from node_modules (no CDN)', async () => {
    const sb = await makeSandbox();
    const page = await sb.http.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.filter((s) => /^https?:/.test(s))).toEqual([]);
    for (const asset of sources.filter((s) => s.startsWith('/docs/'))) {
      const res = await sb.http.get(asset);
      expect(res.status, asset).toBe(200);
    }
    const init = await sb.http.get('/docs/init.js');
    expect(init.text).toContain("url: '/openapi.json'");
    expect(init.text).toContain('tryItOutEnabled: true');
  });

  it('serves only the Swagger files the page needs', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.get('/docs/assets/index.html'), 404, 'Not found: GET /docs/assets/index.html');
    expectError(await sb.http.get('/docs/assets/..%2Fpackage.json'), 404);
  });

  it('serves /openapi.json with servers set to the address the request came in on', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/openapi.json').set('Host', 'sandbox.test:4010');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(res.body.servers).toEqual([{ url: 'http://sandbox.test:4010', description: 'this sandbox' }]);
    expect(Object.keys(res.body.paths)).toContain('/__sandbox/health');
  });

  it('serves /openapi.yaml with the same content as YAML', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/openapi.yaml').set('Host', '127.0.0.1:3001');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/yaml/);
    const doc = parse(res.text) as { servers: { url: string }[]; paths: object };
    expect(doc.servers[0].url).toBe('http://127.0.0.1:3001');
    const json = await sb.http.get('/openapi.json').set('Host', '127.0.0.1:3001');
    expect(doc).toEqual(json.body);
  });

  it('does not let a request change the contract served to the next one', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/openapi.json').set('Host', 'a.test');
    const res = await sb.http.get('/openapi.json').set('Host', 'b.test');
    expect(res.body.servers).toHaveLength(1);
    expect(res.body.servers[0].url).toBe('http://b.test');
  });
});

describe('dashboard files at /__sandbox/ui', () => {
  it('serves the page, and every script and stylesheet it loads, without a CDN', async () => {
    const sb = await makeSandbox();
    for (const path of ['/__sandbox/ui', '/__sandbox/ui/']) {
      const res = await sb.http.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('Marketplace Sandbox dashboard');
    }
    const page = (await sb.http.get('/__sandbox/ui')).text;
    const assets = [...page.matchAll(/(?:src|href)="(\/__sandbox\/ui\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect((await sb.http.get(asset)).status, asset).toBe(200);
    const app = await sb.http.get('/__sandbox/ui/app.js');
    expect(app.headers['content-type']).toMatch(/javascript/);
    for (const [, module] of app.text.matchAll(/from '\.\/([a-z-]+\.js)'/g))
      expect((await sb.http.get(`/__sandbox/ui/${module}`)).status, module).toBe(200);
  });

  it('answers an unknown dashboard file with the one error shape', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.get('/__sandbox/ui/nope.js'), 404, 'Not found: GET /__sandbox/ui/nope.js');
  });
});
