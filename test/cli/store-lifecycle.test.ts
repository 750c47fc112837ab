import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf, runCli, spawnCli, waitForReady } from '../helpers/cli.js';
import { checkedFetch } from '../helpers/checked-clients.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'sandbox-cli-'));

describe('marketplace-sandbox CLI', () => {
  it('prints help and version, and exits 2 on bad flags or env values', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: marketplace-sandbox');
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const bad = await runCli(['--port', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--port must be a whole number');
    const badEnv = await runCli([], { SANDBOX_SEED: 'x' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('SANDBOX_SEED must be a whole number');
  });

  it('serves a file store, flushes on SIGTERM and keeps data across restarts', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const first = spawnCli(['--port', '0', '--host', '127.0.0.1', '--data', data]);
    const url = await waitForReady(first);
    const reg = await checkedFetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keep@example.com', password: 'longenough' }),
    });
    expect(reg.status).toBe(201);
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);
    expect(await readFile(join(dir, 'jwt-secret'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);

    const second = spawnCli(['--port', '0', '--host', '127.0.0.1', '--data', data]);
    const url2 = await waitForReady(second);
    const login = await checkedFetch(`${url2}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keep@example.com', password: 'longenough' }),
    });
    expect(login.status).toBe(200);
    second.kill('SIGINT');
    expect(await exitOf(second)).toBe(0);
  });

  it('refuses to start on an unparsable database and leaves it alone', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    await writeFile(data, '{"broken":');
    const res = await runCli(['--port', '0', '--data', data]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(data);
    expect(res.stderr).toContain('--reset');
    expect(await readFile(data, 'utf8')).toBe('{"broken":');
  });

  it('builds a byte-identical database from the same seed', async () => {
    const dir = await tempDir();
    const files = [join(dir, 'a.json'), join(dir, 'b.json'), join(dir, 'c.json')];
    const seeds = ['7', '7', '8'];
    for (const [i, file] of files.entries()) {
      const child = spawnCli([
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--data',
        file,
        '--seed',
        seeds[i],
        // Pinned: an unpinned seed starts at the wall time, a different instant in each file.
        '--clock-start',
        '2026-01-01T00:00:00Z',
        '--reset',
      ]);
      await waitForReady(child);
      child.kill('SIGTERM');
      await exitOf(child);
    }
    const [a, b, c] = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});
