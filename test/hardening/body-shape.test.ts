import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../src/stages/body.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';
import { checkedFetch } from '../helpers/checked-clients.js';
import { serverFor } from '../../src/process/http-server.js';

// Issue 14, One request must never freeze the process: a JSON body within the 1 MB limit could hold
// the process up for its parse alone, nested 250,000 deep, with 80,000 keys of their own names or
// with half a million arrays side by side (docs/security.md T30 has the figures;
// test/fuzz/worst-cases.test.ts measures them for every operation). Its shape is judged before the
// parse, in one pass over its bytes: too deep or holding too many arrays, objects and keys is a 400
// that says the limit, and nothing else runs.

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const DEEP = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
const MANY = `Request body holds more than ${MAX_JSON_MEMBERS} arrays, objects and keys`;
const manyKeys = `{${Array.from({ length: MAX_JSON_MEMBERS }, (_, i) => `"k${i}":0`).join(',')}}`;

describe('a JSON body is judged by its shape before it is parsed', () => {
  it('refuses a body nested too deep, or holding too many values, with the limit', async () => {
    const sb = await makeSandbox();
    const send = (path: string, body: string) =>
      sb.http.post(path).set('content-type', 'application/json').send(body);
    expectError(await send('/api/auth/register', `{"email":${nested(250_000)}}`), 400, DEEP);
    expectError(await send('/__sandbox/snapshots', `{"name":${nested(MAX_JSON_DEPTH + 1)}}`), 400, DEEP);
    expectError(await send('/api/auth/login', manyKeys), 400, MANY);
    // At the limits, the body is read and judged by the contract as before.
    expectError(
      await send('/__sandbox/snapshots', `{"name":${nested(MAX_JSON_DEPTH - 1)}}`),
      400,
      'body.name must be string',
    );
  });

  it('judges the credential first, as for any body it cannot read', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/settings/api-keys')
      .set('authorization', 'Bearer not.a.token')
      .set('content-type', 'application/json')
      .send(`{"name":${nested(MAX_JSON_DEPTH + 1)}}`);
    expectError(res, 401, 'Invalid or expired token');
    const good = await sb.http
      .post('/api/settings/api-keys')
      .set('authorization', `Bearer ${accounts.buyer.apiKey}`)
      .set('content-type', 'application/json')
      .send(`{"name":${nested(MAX_JSON_DEPTH + 1)}}`);
    expectError(good, 400, DEEP);
  });

  it('reads a gzip body as decoded, and changes nothing when it refuses', async () => {
    const sb = await makeSandbox();
    const server = serverFor(sb.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const before = JSON.stringify([sb.world.store.db.users, sb.world.store.db.ledger]);
    const res = await checkedFetch(
      `http://127.0.0.1:${port}/__sandbox/wallets/${encodeURIComponent(accounts.buyer.email)}/fund`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(`{"amount_cents":100,"x":${nested(MAX_JSON_DEPTH + 1)}}`),
      },
    );
    server.close();
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: DEEP });
    expect(JSON.stringify([sb.world.store.db.users, sb.world.store.db.ledger])).toBe(before);
  });
});
