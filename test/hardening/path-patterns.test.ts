import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/sandbox.js';
import { childSandbox } from './child-sandbox.js';

// Issue 14, One request must never freeze the process: path patterns of the journal filter and of
// sticky scenario scopes were backtracking regular expressions, so `/**a**a**a**a**a**a**a**a**b`
// against a long path blocked every sandbox (docs/security.md T23). They are matched in time linear in the
// path: picomatch's expression, taken only for patterns it matches so (the others, that one
// included, are a 400 that names the pattern), and a pattern is at most 200 characters (a 400
// says so). The sandbox runs as a child process (child-sandbox.ts). The audit that followed:
// journal-long-paths.test.ts.

const EVIL = '/**a**a**a**a**a**a**a**a**b';
/** What may follow `/**\/*` (32 characters after the `**`), compared at every place the `*` may end. */
const COSTLIEST_TAIL = `${'a'.repeat(29)}b`;
const LONG_PATH = `/api/shop/${'a'.repeat(4000)}`;

const { call, cheap } = childSandbox(['--listings', '60', '--rate-limit', '0']);

describe('path patterns cost time linear in the path', () => {
  it('the journal filter refuses a pathological pattern at once, and answers long paths rightly', async () => {
    for (let i = 0; i < 3; i += 1) expect((await call('GET', LONG_PATH)).status).toBe(404);
    const refused = await cheap('GET', `/__sandbox/requests?path=${encodeURIComponent(EVIL)}`);
    expectError(refused, 400, /^query\.path: path pattern "\/\*\*a\*\*a.*\*\*b" has \*\* inside the segment/);
    const none = await cheap(
      'GET',
      `/__sandbox/requests?path=${encodeURIComponent(`/**/*${COSTLIEST_TAIL}`)}`,
    );
    expect(none.status).toBe(200);
    expect(none.body.requests).toEqual([]);
    const all = await cheap(
      'GET',
      `/__sandbox/requests?path=${encodeURIComponent(`/**/*${'a'.repeat(30)}`)}`,
    );
    expect((all.body.requests as { path: string }[]).map((r) => r.path)).toEqual([
      LONG_PATH,
      LONG_PATH,
      LONG_PATH,
    ]);
  });

  it('a sticky scenario scoped to the costliest pattern taken costs every request nothing', async () => {
    expectError(
      await call('POST', '/__sandbox/scenarios', { name: 'server.error', scope: { path: EVIL } }),
      400,
      /^body\.scope\.path: path pattern "\/\*\*a\*\*a.*\*\*b" has \*\* inside the segment/,
    );
    const path = `/**/*${COSTLIEST_TAIL}`;
    expect(
      (await call('POST', '/__sandbox/scenarios', { name: 'server.error', scope: { path } })).status,
    ).toBe(201);
    const res = await cheap('GET', LONG_PATH);
    expect(res.status).toBe(404);
    const applied = await cheap('GET', `/api/shop/stores/${'a'.repeat(90)}b`);
    expectError(applied, 500);
    expect((await call('DELETE', '/__sandbox/scenarios')).status).toBe(200);
  });

  it('a pattern over 200 characters is a 400 that says the limit, wherever a pattern is taken', async () => {
    const long = `/${'*a'.repeat(100)}`;
    expectError(
      await call('GET', `/__sandbox/requests?path=${encodeURIComponent(long)}`),
      400,
      /200 characters/,
    );
    expectError(
      await call('POST', '/__sandbox/scenarios', { name: 'server.error', scope: { path: long } }),
      400,
      /200 characters/,
    );
    const document = {
      name: 'long-pattern',
      description: 'a long pattern',
      switches: [{ name: 'server.error', scope: { path: long } }],
    };
    expectError(
      await call('POST', '/__sandbox/scenarios/long-pattern/activate', { document }),
      400,
      /200 characters/,
    );
    const longest = `/${'a/'.repeat(99)}*`;
    expect(longest.length).toBe(200);
    expect(
      (await call('POST', '/__sandbox/scenarios', { name: 'server.error', scope: { path: longest } })).status,
    ).toBe(201);
    expect((await call('DELETE', '/__sandbox/scenarios')).status).toBe(200);
  });

  it('a sandbox holds at most 100 sticky switches; a file that would pass it changes nothing', async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < 100; i += 1) {
      const added = await call('POST', '/__sandbox/scenarios', {
        name: 'server.error',
        scope: { path: `/never/${i}` },
      });
      expect(added.status).toBe(201);
      ids.push(added.body.id);
    }
    expectError(
      await call('POST', '/__sandbox/scenarios', { name: 'server.error' }),
      409,
      /at most 100 sticky/,
    );
    expect((await call('DELETE', `/__sandbox/scenarios/${String(ids[0])}`)).status).toBe(200);
    const funded = { email: 'broke@sandbox.test', balance_cents: 123_456 };
    const document = {
      name: 'two-more',
      description: 'two switches more',
      overlay: { wallets: [funded] },
      switches: ['server.error', 'rates.stale'],
    };
    expectError(
      await call('POST', '/__sandbox/scenarios/two-more/activate', { document }),
      409,
      /at most 100 sticky/,
    );
    const accounts = (await call('GET', '/__sandbox/accounts')).body.accounts as {
      email: string;
      balance_cents: number;
    }[];
    expect(accounts.find((a) => a.email === funded.email)?.balance_cents).toBe(0);
    expect(((await call('GET', '/__sandbox/scenarios')).body.scenarios as unknown[]).length).toBe(99);
  });
});
