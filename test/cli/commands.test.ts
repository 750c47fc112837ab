import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandOf } from '../../src/cli/commands.js';
import { UsageError } from '../../src/cli/args.js';
import { exitOf, runCli, spawnCli, waitForReady } from '../helpers/cli.js';
import type { ChildProcess } from 'node:child_process';

describe('subcommands', () => {
  it('serve is the default, so a command line of flags starts the sandbox as before', () => {
    expect(commandOf([])).toEqual({ name: 'serve', args: [] });
    expect(commandOf(['--port', '1'])).toEqual({ name: 'serve', args: ['--port', '1'] });
    expect(commandOf(['serve', '--seed', '7'])).toEqual({ name: 'serve', args: ['--seed', '7'] });
    expect(commandOf(['replay', 'x.yaml', '--url', 'u'])).toEqual({
      name: 'replay',
      args: ['x.yaml', '--url', 'u'],
    });
    expect(() => commandOf(['frob'])).toThrow(UsageError);
  });

  it('--help lists every subcommand and every serve option with its variable', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: marketplace-sandbox \[command\] \[options\]/);
    for (const command of ['serve [options]', 'replay <file|dir> [options]', 'help [command]'])
      expect(stdout).toContain(`  ${command} `);
    expect(stdout).toMatch(/--admin-token VALUE .*\[env SANDBOX_ADMIN_TOKEN\]/);
    expect(stdout).toContain('npm run sandbox --');
  });

  it('replay --help and help replay list the options of replay, its variable and its exit codes', async () => {
    for (const args of [
      ['replay', '--help'],
      ['help', 'replay'],
      ['replay', '-h'],
    ]) {
      const { code, stdout } = await runCli(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout).toMatch(/^Usage: marketplace-sandbox replay <file\|dir>/);
      for (const part of ['--url URL', '--junit FILE', 'SANDBOX_ADMIN_TOKEN', 'Exit codes'])
        expect(stdout).toContain(part);
    }
  });

  it('an unknown command is one line and exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['frob']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'marketplace-sandbox: unknown command "frob" (commands: serve, replay, help) (see --help)',
    );
  });

  it('a missing scenario file is one clear line on stderr and exit 2, not a raw ENOENT', async () => {
    const { code, stdout, stderr } = await runCli(['replay', 'scenarios/no-such-file.yaml']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('replay: no scenario file or directory at scenarios/no-such-file.yaml');
    expect(stdout).toBe('');
    const empty = mkdtempSync(join(tmpdir(), 'replay-empty-'));
    const none = await runCli(['replay', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(`replay: no scenario files (*.yaml) in ${empty}`);
  });
});

describe('replay against a sandbox that needs the admin token', () => {
  let server: ChildProcess;
  let url: string;
  let file: string;
  beforeAll(async () => {
    server = spawnCli(['--in-memory', '--port', '0', '--host', '127.0.0.1'], {
      SANDBOX_ADMIN_TOKEN: 'team-token',
    });
    url = await waitForReady(server);
    const dir = mkdtempSync(join(tmpdir(), 'replay-admin-'));
    file = join(dir, 'health.yaml');
    writeFileSync(
      file,
      'name: health\ndescription: x\nsteps:\n  - name: h\n    request: { method: GET, path: /__sandbox/health }\n    expect: { status: 200 }\n',
    );
  });
  afterAll(async () => {
    server.kill('SIGTERM');
    await exitOf(server);
  });

  it('exits 2 with a line saying to set SANDBOX_ADMIN_TOKEN when it has none', async () => {
    const { code, stderr } = await runCli(['replay', file, '--url', url], { SANDBOX_ADMIN_TOKEN: '' });
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      `replay: the sandbox at ${url} needs an admin token: set SANDBOX_ADMIN_TOKEN to the value it was started with`,
    );
  });

  it('exits 2 when the token is wrong, and runs with the right one', async () => {
    const wrong = await runCli(['replay', file, '--url', url], { SANDBOX_ADMIN_TOKEN: 'nope' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('refused the admin token: set SANDBOX_ADMIN_TOKEN');
    const right = await runCli(['replay', file, '--url', url], { SANDBOX_ADMIN_TOKEN: 'team-token' });
    expect(right.stdout).toMatch(/1 passed, 0 failed\s*$/);
    expect(right.code).toBe(0);
  });
});
