import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { addSticky, removeSticky } from '../../src/scenarios/state.js';
import { hasStickyScenarios, responseCache, ResponseCache } from '../../src/http/response-cache.js';
import { startContext } from '../../src/http/express-context.js';
import { makeSandbox } from '../helpers/sandbox.js';

const entry = (body: string, at = 0) => ({
  status: 200,
  headers: {},
  bytes: Buffer.from(body),
  query: {},
  at,
});

describe('ResponseCache', () => {
  it('serves an entry only for the version it was made for, within its time', () => {
    const cache = new ResponseCache(10);
    cache.set(1, 'a', entry('A', 1000));
    expect(cache.get(1, 'a', 1500)?.bytes.toString()).toBe('A');
    expect(cache.get(2, 'a', 1500)).toBeUndefined();
    cache.set(3, 'b', entry('B', 1000));
    expect(cache.get(1, 'a', 1500)).toBeUndefined();
    expect(cache.get(3, 'b', 2000)).toBeUndefined();
  });

  it('drops the least recently used entry past its size, and bodies past its byte bound', () => {
    const cache = new ResponseCache(2, 10);
    cache.set(1, 'a', entry('1'));
    cache.set(1, 'b', entry('2'));
    cache.get(1, 'a', 0);
    cache.set(1, 'c', entry('3'));
    expect(cache.get(1, 'b', 0)).toBeUndefined();
    expect(cache.get(1, 'a', 0)?.bytes.toString()).toBe('1');
    cache.set(1, 'd', entry('x'.repeat(11)));
    expect(cache.get(1, 'd', 0)).toBeUndefined();
  });
});

describe('response cache middleware', () => {
  async function app() {
    const sb = await makeSandbox();
    let calls = 0;
    const a = express();
    a.use((req, res, next) => {
      startContext(req, res);
      req.world = sb.world;
      next();
    });
    a.use(responseCache());
    a.get('/api/thing', (req, res) => {
      calls += 1;
      res.set('x-total', String(calls)).json({ n: calls, q: req.query.q ?? null });
    });
    a.get('/api/missing', (_req, res) => void res.status(404).json({ error: 'nope' }));
    a.get('/api/tagged', (_req, res) => {
      calls += 1;
      res.set('ETag', '"v1"').json({ n: calls });
    });
    // supertest listens on a new port per request: a fixed Host keeps the key (and body) the same.
    const agent = supertest.agent(a).set('host', 'sandbox.test');
    return { sb, http: agent, calls: () => calls };
  }

  it('answers a repeat from the cache, with the handler’s headers, until a write', async () => {
    const { sb, http, calls } = await app();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const first = await http.get('/api/thing?q=x');
    const again = await http.get('/api/thing?q=x');
    expect(again.text).toBe(first.text);
    expect(again.headers['x-total']).toBe('1');
    expect(again.headers['content-type']).toMatch(/json/);
    expect(calls()).toBe(1);
    await http.get('/api/thing?q=y');
    expect(calls()).toBe(2);
    sb.world.store.mutate(() => undefined);
    expect((await http.get('/api/thing?q=x')).body.n).toBe(3);
  });

  it('never caches errors, conditional answers, credentials, scenario headers or sticky scenarios', async () => {
    const { sb, http, calls } = await app();
    await http.get('/api/missing');
    await http.get('/api/missing');
    await http.get('/api/tagged');
    await http.get('/api/tagged');
    for (const [name, value] of [
      ['authorization', 'Bearer x'],
      ['x-guest-token', 'g'],
      ['x-sandbox-scenario', 'latency=1'],
      // A condition is answered by Express's freshness check, after the handler.
      ['if-none-match', '*'],
      ['if-modified-since', 'Thu, 01 Jan 2026 00:00:00 GMT'],
    ]) {
      await http.get('/api/thing').set(name, value);
      await http.get('/api/thing').set(name, value);
    }
    expect(calls()).toBe(12);
    await http.get('/api/thing?api_key=k');
    await http.get('/api/thing?api_key=k');
    expect(calls()).toBe(14);
    addSticky(sb.world, { name: 'latency', param: 1 }, { source: 'api' });
    expect(hasStickyScenarios(sb.world)).toBe(true);
    await http.get('/api/thing');
    await http.get('/api/thing');
    expect(calls()).toBe(16);
    removeSticky(sb.world);
    expect(hasStickyScenarios(sb.world)).toBe(false);
  });

  it('serves the same listings page bytes twice and a fresh one after a write', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    const a = await sb.http.get('/api/shop/listings?limit=5').set('host', 'sandbox.test');
    const b = await sb.http.get('/api/shop/listings?limit=5').set('host', 'sandbox.test');
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    const bad = await sb.http.get('/api/shop/listings?limit=0');
    expect(bad.status).toBe(400);
  });
});
