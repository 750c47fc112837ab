import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { checkedFetch } from '../helpers/checked-clients.js';
import { exitOf, runCli, spawnCli, waitForReady } from '../helpers/cli.js';

// --strict and SANDBOX_STRICT through the real command line (README, "How the sandbox differs";
// docs/errors.md, "Warnings"): every warning becomes the 400 or 401 it would have been.
const started: ChildProcess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) {
    child.kill('SIGTERM');
    await exitOf(child);
  }
});

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const child = spawnCli(
    ['--in-memory', '--port', '0', '--host', '127.0.0.1', '--listings', '40', ...args],
    env,
  );
  started.push(child);
  return waitForReady(child);
}

/** What the sandbox makes of a cache-buster and a bad credential on a public read. */
async function outcome(base: string) {
  const busted = await checkedFetch(`${base}/api/shop/listings?limit=1&_=1700000000`);
  const token = await checkedFetch(`${base}/api/shop/categories`, {
    headers: { Authorization: 'Bearer nope' },
  });
  return {
    busted: [
      busted.status,
      busted.headers.get('x-sandbox-warning'),
      ((await busted.json()) as { error?: string }).error,
    ],
    token: [token.status, token.headers.get('x-sandbox-warning') === null],
  };
}

describe('--strict and SANDBOX_STRICT on the command line', () => {
  it('are off by default (and with SANDBOX_STRICT=0): warnings, no refusal', async () => {
    for (const env of [{}, { SANDBOX_STRICT: '0' }]) {
      const base = await serve([], { SANDBOX_STRICT: undefined, ...env });
      expect(await outcome(base)).toEqual({
        busted: [200, 'unknown query parameter "_" ignored', undefined],
        token: [200, false],
      });
    }
  });

  it('--strict, SANDBOX_STRICT=1 and SANDBOX_STRICT=true refuse what would be warned about', async () => {
    const runs: [string[], NodeJS.ProcessEnv][] = [
      [['--strict'], { SANDBOX_STRICT: undefined }],
      [[], { SANDBOX_STRICT: '1' }],
      [[], { SANDBOX_STRICT: 'true' }],
    ];
    for (const [args, env] of runs) {
      const base = await serve(args, env);
      expect(await outcome(base)).toEqual({
        busted: [400, null, "Unknown query parameter '_'"],
        token: [401, true],
      });
    }
  });

  it('a SANDBOX_STRICT that is no yes or no is a usage error, exit 2', async () => {
    const run = await runCli(['--in-memory', '--port', '0'], { SANDBOX_STRICT: 'maybe' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SANDBOX_STRICT must be true or false, got "maybe"');
  });
});
