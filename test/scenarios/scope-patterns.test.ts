import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { resolveStartupScenario } from '../../src/scenarios/activate.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Path patterns of sticky scopes and of the journal filter are matched by picomatch, which
// compiles them into backtracking regular expressions: the patterns it would not match in time
// linear in the path are refused where they are taken, each with a 400 that names the pattern.

const buyerKey = `Bearer ${accounts.buyer.apiKey}`;

/** One pattern of each class refused, and what the 400 says of it (docs/scenarios.md). */
const REFUSED: [string, string][] = [
  ['/api/a*b*c', 'has more than one * in the segment "a*b*c"'],
  ['/**a**a**b', 'has ** inside the segment "**a**a**b"'],
  ['/api**', 'has ** inside the segment "api**"'],
  ['/**/a/**/b', 'has more than one **'],
  ['/**/items/*/**', 'has more than one **'],
  ['/api/**/*/*', 'has more than one * after its **'],
  [`/api/*${'a'.repeat(33)}`, 'has more than 32 characters after the *'],
  [`/api/**/${'a'.repeat(32)}`, 'has more than 32 characters after its **'],
  ['/api/*\\', 'holds a \\: a pattern has no escapes'],
];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const naming = (where: string, pattern: string, reason: string) =>
  new RegExp(`^${escaped(`${where}: path pattern ${JSON.stringify(pattern)} ${reason}`)}`);

const status = async (sb: TestSandbox, path: string) =>
  (await sb.http.get(path).set('Authorization', buyerKey)).status;

describe('sticky scope patterns', () => {
  it('match as documented: * within a segment, a ** segment across any number', async () => {
    const sb = await makeSandbox();
    const on = async (path: string) =>
      expect(
        (await sb.http.post('/__sandbox/scenarios').send({ name: 'server.error', scope: { path } })).status,
      ).toBe(201);
    await on('/api/wallet/*');
    expect(await status(sb, '/api/wallet/balance')).toBe(500);
    expect(await status(sb, '/api/auth/me')).toBe(200);
    await sb.http.delete('/__sandbox/scenarios');
    await on('/**/me');
    expect(await status(sb, '/api/auth/me')).toBe(500);
    expect(await status(sb, '/api/wallet/balance')).toBe(200);
    await sb.http.delete('/__sandbox/scenarios');
    await on('/api/**');
    expect(await status(sb, '/api/wallet/balance')).toBe(500);
    expect(await status(sb, '/api/auth/me')).toBe(500);
  });

  it('refuse each pattern that would not match in linear time, naming it, and add nothing', async () => {
    const sb = await makeSandbox();
    for (const [path, reason] of REFUSED) {
      const res = await sb.http.post('/__sandbox/scenarios').send({ name: 'server.error', scope: { path } });
      expectError(res, 400, naming('body.scope.path', path, reason));
    }
    expect((await sb.http.get('/__sandbox/scenarios')).body.scenarios).toEqual([]);
    expect(await status(sb, '/api/wallet/balance')).toBe(200);
  });

  it('refuse a pattern over 200 characters, and take one of 200', async () => {
    const sb = await makeSandbox();
    const longest = `/${'a/'.repeat(99)}*`;
    const send = (path: string) =>
      sb.http.post('/__sandbox/scenarios').send({ name: 'server.error', scope: { path } });
    expectError(await send(`${longest}b`), 400, 'body.scope.path must NOT have more than 200 characters');
    expect((await send(longest)).status).toBe(201);
  });
});

describe('the journal filter', () => {
  it('refuses the same patterns, and one over 200 characters, naming them', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/auth/me');
    for (const [path, reason] of REFUSED) {
      const res = await sb.http.get(`/__sandbox/requests?path=${encodeURIComponent(path)}`);
      expectError(res, 400, naming('query.path', path, reason));
    }
    const long = `/api/${'*/'.repeat(98)}`;
    expectError(
      await sb.http.get(`/__sandbox/requests?path=${encodeURIComponent(long)}`),
      400,
      'query.path must NOT have more than 200 characters',
    );
    const found = await sb.http.get(`/__sandbox/requests?path=${encodeURIComponent('/**/me')}`);
    expect(found.body.requests.map((r: { path: string }) => r.path)).toEqual(['/api/auth/me']);
  });
});

describe('scenario files', () => {
  const file = (path: string) => ({
    name: 'scoped',
    description: 'one scoped switch and a wallet',
    overlay: { wallets: [{ email: accounts.buyer.email, balance_cents: 4242 }] },
    switches: [{ name: 'server.error', scope: { path } }],
  });

  it('refuse a document with such a pattern, naming it, and change nothing', async () => {
    const sb = await makeSandbox();
    const before = (await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body;
    for (const [path, reason] of REFUSED) {
      const res = await sb.http.post('/__sandbox/scenarios/scoped/activate').send({ document: file(path) });
      expectError(res, 400, naming('body.document: /switches/0/scope/path', path, reason));
    }
    expect((await sb.http.get('/__sandbox/scenarios')).body.scenarios).toEqual([]);
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body).toEqual(before);
    const taken = await sb.http
      .post('/__sandbox/scenarios/scoped/activate')
      .send({ document: file('/api/**/balance') });
    expect(taken.status).toBe(200);
    expect(await status(sb, '/api/wallet/balance')).toBe(500);
  });

  it('stop the start-up (--scenario) at a file with such a pattern', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
    writeFileSync(join(dir, 'scoped.yaml'), JSON.stringify(file('/api/a*b*c')));
    const config = makeConfig({ inMemory: true, scenariosDir: dir, scenario: 'scoped' });
    expect(() => resolveStartupScenario(config)).toThrow(
      /\/switches\/0\/scope\/path: path pattern "\/api\/a\*b\*c"/,
    );
  });
});
