import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';
import { makeConfig } from '../../src/process/config.js';
import { checkWordFlags, logFormatOf, watchSeeding } from '../../src/process/cli-setup.js';
import { reportSeedProgress, seedProgressReporter } from '../../src/seed/context.js';
import { progressBar } from '../../src/process/progress-bar.js';
import { checkedFetch } from '../helpers/checked-clients.js';
import { CLI } from '../helpers/cli.js';

const ROOT = new URL('../../', import.meta.url);

/** Runs the CLI as it ships and resolves once it printed its ready line. */
function startCli(args: string[]) {
  const child = spawn(CLI[0], [CLI[1], ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const line = out.split('\n').find((l) => l.includes(' ready at '));
      if (line) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  ready.catch(() => undefined); // a test that expects no ready line awaits the exit instead
  return { child, ready, output: () => out, errors: () => err };
}

describe('log format and CORS flags', () => {
  it('reads every flag from its environment variable too', () => {
    const { config } = parseCli([], {
      SANDBOX_LOG_FORMAT: 'json',
      SANDBOX_QUIET: 'true',
      SANDBOX_ALT_PORT: '3001',
      SANDBOX_CORS_ORIGINS: 'off',
    });
    expect(config).toMatchObject({ logFormat: 'json', quiet: true, altPort: 3001, corsOrigins: 'off' });
    const flags = parseCli(
      ['--log-format', 'pretty', '--quiet', '--alt-port', '0', '--cors-origins', '*'],
      {},
    );
    expect(flags.config).toMatchObject({ logFormat: 'pretty', quiet: true, altPort: 0, corsOrigins: '*' });
    expect(parseCli([], {}).config.altPort).toBeUndefined();
  });

  it('rejects bad values with a usage error', () => {
    expect(() => parseCli(['--alt-port', '70000'], {})).toThrow(UsageError);
    expect(() => checkWordFlags(makeConfig({ logFormat: 'xml' }))).toThrow(
      '--log-format must be "pretty" or "json", got "xml"',
    );
    expect(() => checkWordFlags(makeConfig({ corsOrigins: 'nope' }))).toThrow(UsageError);
  });

  it('logs pretty on a terminal and JSON elsewhere unless told', () => {
    expect(logFormatOf(makeConfig(), true)).toBe('pretty');
    expect(logFormatOf(makeConfig(), false)).toBe('json');
    expect(logFormatOf(makeConfig({ logFormat: 'json' }), true)).toBe('json');
  });
});

describe('seeding progress bar', () => {
  it('redraws in place on a terminal and ends the line at 100%', () => {
    let text = '';
    const bar = progressBar({ isTTY: true, write: (s: string) => ((text += s), true) }, 'Seeding listings');
    for (let i = 0; i <= 10_000; i += 100) bar(i, 10_000);
    const frames = text.split('\r').filter(Boolean);
    expect(frames).toHaveLength(101);
    expect(frames.at(-1)).toBe(`Seeding listings [${'#'.repeat(30)}] 100% 10000/10000\n`);
    expect(frames[50]).toContain(' 50% 5000/10000');
  });

  it('prints one line per quarter when the output is a log', () => {
    let text = '';
    const bar = progressBar({ isTTY: false, write: (s: string) => ((text += s), true) }, 'Seeding listings');
    for (let i = 0; i <= 8000; i++) bar(i, 8000);
    expect(text.trim().split('\n')).toEqual([
      'Seeding listings: 0% (0/8000)',
      'Seeding listings: 25% (2000/8000)',
      'Seeding listings: 50% (4000/8000)',
      'Seeding listings: 75% (6000/8000)',
      'Seeding listings: 100% (8000/8000)',
    ]);
  });
});

describe('seeding progress hook', () => {
  it('hands a bar to seeders only above 5000 listings and never when quiet', () => {
    const stream = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    watchSeeding(makeConfig({ listings: 5000 }), stream);
    expect(seedProgressReporter()).toBeUndefined();
    watchSeeding(makeConfig({ listings: 5001, quiet: true }), stream);
    expect(seedProgressReporter()).toBeUndefined();
    watchSeeding(makeConfig({ listings: 20_000 }), stream);
    expect(seedProgressReporter()).toBeTypeOf('function');
    reportSeedProgress(undefined);
  });
});

describe('the CLI process', () => {
  it('serves the same state on --alt-port and stops cleanly on SIGTERM', async () => {
    const cli = startCli([
      '--in-memory',
      '--port',
      '0',
      '--alt-port',
      '0',
      '--host',
      '127.0.0.1',
      '--log-format',
      'json',
    ]);
    const line = await cli.ready;
    const [, main, alt] = /ready at (http:\/\/\S+) \(also (http:\/\/\S+)\)/.exec(line) ?? [];
    expect(main).toBeDefined();
    expect(alt).not.toBe(main);
    const moved = await checkedFetch(`${main}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: '2027-03-04T05:06:07.000Z', freeze: true }),
    });
    expect(moved.status).toBe(200);
    const seen = (await (await checkedFetch(`${alt}/__sandbox/clock`)).json()) as { now: string };
    expect(seen.now).toBe('2027-03-04T05:06:07.000Z');
    const spec = (await (await checkedFetch(`${alt}/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(spec.servers[0].url).toBe(alt);
    cli.child.kill('SIGTERM');
    const [code] = await once(cli.child, 'exit');
    expect(code).toBe(0);
    expect(cli.output()).toContain('SIGTERM: flushing the store and stopping');
  });

  it('prints nothing on stdout with --quiet, and exits 2 on a bad --log-format', async () => {
    const port = await freePort();
    const quiet = startCli(['--in-memory', '--port', String(port), '--host', '127.0.0.1', '--quiet']);
    await expect
      .poll(
        () =>
          checkedFetch(`http://127.0.0.1:${port}/__sandbox/health`).then(
            (r) => r.status,
            () => 0,
          ),
        {
          timeout: 20_000,
          interval: 200,
        },
      )
      .toBe(200);
    const bad = spawn(CLI[0], [CLI[1], '--log-format', 'xml'], {
      cwd: ROOT,
    });
    let err = '';
    bad.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = await once(bad, 'exit');
    expect(code).toBe(2);
    expect(err).toContain('--log-format must be "pretty" or "json", got "xml"');
    quiet.child.kill('SIGTERM');
    const [quietCode] = await once(quiet.child, 'exit');
    expect(quietCode).toBe(0);
    expect(quiet.output()).toBe('');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
