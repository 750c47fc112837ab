import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { exitOf, spawnCli, waitForReady } from '../helpers/cli.js';
import { REQUEST_CPU_BUDGET_MS, withCpu } from '../helpers/server-cpu.js';
import { checkedFetch } from '../helpers/checked-clients.js';

/** Longer than any answer can take without freezing, short enough to fail rather than hang. */
const TIMEOUT_MS = 10_000;

/**
 * The real CLI as a child process for the file's tests (started before them, killed after), so a
 * freeze is a request that times out, not a test that hangs with it, and a request's cost is the
 * CPU time of the child's main thread (test/helpers/server-cpu.ts), not wall time on a busy machine.
 */
export function childSandbox(args: string[]) {
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    child = spawnCli(['--in-memory', '--port', '0', '--host', '127.0.0.1', ...args]);
    base = await waitForReady(child);
  });
  afterAll(async () => {
    child.kill('SIGKILL');
    await exitOf(child);
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await checkedFetch(base + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /**
   * A call that must answer within the budget of one request, in the server's CPU time. It is
   * made up to three times and the cheapest counts: a collection of garbage that earlier requests
   * left may fall into any one call, and a cost that is the call's own comes back every time.
   */
  async function cheap(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    // Without a pid, withCpu would measure this process instead of the child.
    const pid = child.pid;
    if (pid === undefined) throw new Error('the child sandbox has no pid: its CPU time cannot be measured');
    let best = Infinity;
    let result: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt < 3 && best >= REQUEST_CPU_BUDGET_MS; attempt += 1) {
      const measured = await withCpu(() => call(method, path, body, headers), pid);
      result = measured.result;
      best = Math.min(best, measured.cpuMs);
    }
    expect(best, `${method} ${path.slice(0, 60)}`).toBeLessThan(REQUEST_CPU_BUDGET_MS);
    return result!;
  }

  /** Sends GETs for `paths` in one sandbox, 20 at a time (each a 404, recorded in its journal). */
  async function fill(sandbox: string, paths: string[]) {
    for (let i = 0; i < paths.length; i += 20)
      await Promise.all(
        paths.slice(i, i + 20).map(async (path) => {
          const res = await checkedFetch(base + path, { headers: { 'x-sandbox-id': sandbox } });
          await res.arrayBuffer();
        }),
      );
  }

  return { call, cheap, fill };
}
