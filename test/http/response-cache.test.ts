import express from 'express';
import { pino } from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { AnswerCache, answerCache } from '../../src/stages/answer-cache.js';
import type { Operation } from '../../src/contract/spec.js';
import { addSticky, removeSticky } from '../../src/scenarios/state.js';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

const entry = (body: string, at = 0) => ({ headers: {}, bytes: Buffer.from(body), at });

describe('AnswerCache', () => {
  it('serves an entry only for the version it was made for, within its time', () => {
    const cache = new AnswerCache(10);
    cache.set(1, 'a', entry('A', 1000));
    expect(cache.get(1, 'a', 1500)?.bytes.toString()).toBe('A');
    expect(cache.get(2, 'a', 1500)).toBeUndefined();
    cache.set(3, 'b', entry('B', 1000));
    expect(cache.get(1, 'a', 1500)).toBeUndefined();
    expect(cache.get(3, 'b', 2000)).toBeUndefined();
  });

  it('drops the least recently used entry past its size, and bodies past its byte bound', () => {
    const cache = new AnswerCache(2, 10);
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

/** A cacheable operation `GET /api/thing` declaring the query parameter `q`. */
const thing: Operation = {
  operationId: 'getThing',
  method: 'get',
  path: '/api/thing',
  expressPath: '/api/thing',
  security: [],
  optionalAuth: true,
  parameters: [{ name: 'q', in: 'query' }],
  cacheable: true,
  queryCredentials: ['api_key'],
};

/**
 * The answer cache stage in front of a handler that answers with how often it ran and, when
 * `reads` says so, with an input of the request: a world of a real sandbox, a logger whose
 * warnings the test reads.
 */
async function stageApp(reads: (req: express.Request) => unknown = () => null) {
  const sb = await makeSandbox();
  await sb.http.post('/__sandbox/clock').send({ freeze: true });
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  let calls = 0;
  const app = express();
  app.use((req, _res, next) => {
    req.world = sb.world;
    req.principal = req.headers.authorization ? { user: { id: req.headers.authorization, via: 'jwt' } } : {};
    next();
  });
  const cache = answerCache(thing, log)!;
  const handler: express.RequestHandler = (req, res) => {
    calls += 1;
    res.set('x-total', String(calls)).json({ n: calls, q: req.query.q ?? null, read: reads(req) ?? null });
  };
  app.get('/api/thing', cache.lookup, cache.keeping(handler));
  // supertest listens on a new port per request: a fixed Host keeps the base URL (and key) the same.
  const http = supertest.agent(app).set('host', 'sandbox.test');
  return { sb, http, calls: () => calls, warnings };
}

describe('the answer cache stage', () => {
  it('answers a repeat from the cache, with the handler’s headers, until a write', async () => {
    const { sb, http, calls } = await stageApp();
    const first = await http.get('/api/thing?q=x');
    const again = await http.get('/api/thing?q=x');
    expect(again.text).toBe(first.text);
    expect(again.headers['x-total']).toBe('1');
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(calls()).toBe(1);
    await http.get('/api/thing?q=y');
    expect(calls()).toBe(2);
    sb.world.store.mutate(() => undefined);
    expect((await http.get('/api/thing?q=x')).body.n).toBe(3);
  });

  it('keys on the kind of caller and the base URL, not on undeclared inputs', async () => {
    const { http, calls } = await stageApp();
    await http.get('/api/thing');
    await http.get('/api/thing').set('authorization', 'u1');
    await http.get('/api/thing').set('host', 'elsewhere.test');
    expect(calls()).toBe(3);
    await http.get('/api/thing').set('x-anything', 'else');
    await http.get('/api/thing?api_key=k');
    expect(calls()).toBe(3);
    // A query name the operation does not declare is never answered from the cache.
    await http.get('/api/thing?other=1');
    await http.get('/api/thing?other=1');
    expect(calls()).toBe(5);
  });

  it('keeps no answer of a handler that reads a header the key does not cover, and says so', async () => {
    const { http, calls, warnings } = await stageApp((req) => req.headers['x-color']);
    const red = await http.get('/api/thing').set('x-color', 'red');
    const blue = await http.get('/api/thing').set('x-color', 'blue');
    expect([red.body.read, blue.body.read]).toEqual(['red', 'blue']);
    expect(calls()).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ operationId: 'getThing', input: 'header x-color' });
  });

  it('keeps no answer of a handler that reads who the user is (the key holds only the kind)', async () => {
    const { http, calls, warnings } = await stageApp((req) => req.principal.user?.id);
    const one = await http.get('/api/thing').set('authorization', 'u1');
    const two = await http.get('/api/thing').set('authorization', 'u2');
    expect([one.body.read, two.body.read]).toEqual(['u1', 'u2']);
    expect(calls()).toBe(2);
    expect(JSON.parse(warnings[0])).toMatchObject({ input: 'principal.user' });
  });
});

/**
 * A category's name changed in the store without a write (no new store version): a request the
 * cache answers still shows the name it was kept with, one its handler answers the new name.
 */
function renameFirstCategory(sb: TestSandbox, name: string): void {
  const [category] = Object.values(sb.world.store.db.categories);
  category.names = { ...category.names, en: name };
}

describe('the answer cache in the sandbox as it ships', () => {
  async function frozen() {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ freeze: true });
    return sb;
  }
  const names = (res: { body: { categories: { name: string }[] } }) => res.body.categories.map((c) => c.name);
  // supertest listens on a new port per request: a fixed Host keeps the base URL (and key) the same.
  const categories = (sb: TestSandbox) => sb.http.get('/api/shop/categories').set('host', 'sandbox.test');

  it('serves a public read again from the cache, and never a request a scenario touches', async () => {
    const sb = await frozen();
    const before = names(await categories(sb));
    renameFirstCategory(sb, 'Renamed in place');
    expect(names(await categories(sb))).toEqual(before);
    const scenario = await categories(sb).set('X-Sandbox-Scenario', 'latency=1');
    expect(names(scenario)).toContain('Renamed in place');
    addSticky(sb.world, { name: 'latency', param: 1 }, { source: 'api' });
    expect(names(await categories(sb))).toContain('Renamed in place');
    removeSticky(sb.world);
  });

  it('serves a page twice with the same bytes, and a bad query its 400 every time', async () => {
    const sb = await frozen();
    const a = await sb.http.get('/api/shop/listings?limit=5').set('host', 'sandbox.test');
    const b = await sb.http.get('/api/shop/listings?limit=5').set('host', 'sandbox.test');
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    for (const _ of [1, 2]) expect((await sb.http.get('/api/shop/listings?limit=0')).status).toBe(400);
  });

  it('counts every answer to ?api%5Fkey= against the API key, cached or not', async () => {
    const sb = await frozen();
    const url = `/api/shop/categories?api%5Fkey=${accounts.buyer.apiKey}`;
    const policies: string[] = [];
    for (const _ of [1, 2, 3]) {
      const res = await sb.http.get(url);
      expect(res.status).toBe(200);
      policies.push(res.headers['ratelimit-policy']);
    }
    expect(policies.every((p) => p.startsWith('"1000-per-minute-api-key"'))).toBe(true);
    // The second and third were answers from the cache: the key still paid for each.
    expect(new Set(policies).size).toBe(1);
    const remaining = (await sb.http.get(url)).headers.ratelimit;
    expect(remaining).toMatch(/r=996;/);
  });
});
