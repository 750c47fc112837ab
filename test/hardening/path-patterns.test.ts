import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnCli, waitForReady } from '../helpers/cli.js';
import { expectError } from '../helpers/sandbox.js';
import { REQUEST_CPU_BUDGET_MS, withCpu } from '../helpers/server-cpu.js';

// Issue 14, One request must never freeze the process: path patterns of the journal filter and of
// sticky scenario scopes were backtracking regular expressions, so `/**a**a**a**a**a**a**a**a**b`
// against a long path blocked every sandbox for a minute. They are matched in time linear in the
// path, and a pattern is at most 200 characters (a 400 says so). The sandbox runs as a child
// process, so a freeze is a request that times out (not a test that hangs with it), and its cost
// is the CPU time of its main thread (test/helpers/server-cpu.ts), not wall time on a busy machine.

const EVIL = '/**a**a**a**a**a**a**a**a**b';
const LONG_PATH = `/api/shop/${'a'.repeat(4000)}`;
/** Longer than any answer can take without freezing, short enough to fail rather than hang. */
const TIMEOUT_MS = 10_000;

let child: ChildProcess;
let base: string;

beforeAll(async () => {
  child = spawnCli(['--in-memory', '--port', '0', '--host', '127.0.0.1', '--listings', '60']);
  base = await waitForReady(child);
});
afterAll(async () => {
  child.kill('SIGKILL');
  await exitOf(child);
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A call that must answer within the budget of one request, in the server's CPU time. */
async function cheap(method: string, path: string, body?: unknown) {
  const { result, cpuMs } = await withCpu(() => call(method, path, body), child.pid);
  if (cpuMs !== undefined)
    expect(cpuMs, `${method} ${path.slice(0, 60)}`).toBeLessThan(REQUEST_CPU_BUDGET_MS);
  return result;
}

describe('path patterns cost time linear in the path', () => {
  it('the journal filter answers a pathological pattern over long paths at once, and rightly', async () => {
    for (let i = 0; i < 3; i += 1) expect((await call('GET', LONG_PATH)).status).toBe(404);
    const none = await cheap('GET', `/__sandbox/requests?path=${encodeURIComponent(EVIL)}`);
    expect(none.status).toBe(200);
    expect(none.body.requests).toEqual([]);
    const all = await cheap(
      'GET',
      `/__sandbox/requests?path=${encodeURIComponent('/**a**a**a**a**a**a**a**a**')}`,
    );
    expect((all.body.requests as { path: string }[]).map((r) => r.path)).toEqual([
      LONG_PATH,
      LONG_PATH,
      LONG_PATH,
    ]);
  });

  it('a sticky scenario scoped to a pathological pattern costs every request nothing', async () => {
    expect(
      (await call('POST', '/__sandbox/scenarios', { name: 'server.error', scope: { path: EVIL } })).status,
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
    expect(
      (
        await call('POST', '/__sandbox/scenarios', {
          name: 'server.error',
          scope: { path: long.slice(0, 200) },
        })
      ).status,
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
