// SLOW (about 30-90 s): packs the npm package, installs the tarball into a temporary project
// (dependencies from the npm cache or registry) and uses it the way an integrator would.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/process/version.js';
import { exitOf, waitForReady } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'sandbox-pack-'));
const project = join(work, 'project');
const dist = join(project, 'node_modules/marketplace-sandbox/dist');

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    timeout: 240_000,
  });
}

describe('npm package (SLOW: npm pack + npm install of the tarball)', { timeout: 300_000 }, () => {
  let tarball: string;
  beforeAll(() => {
    // Packed from a copy of the checkout's files (tracked, and new ones not ignored) with the
    // checkout's node_modules linked in: `npm pack` deletes and rebuilds dist/ (prepack, prepare),
    // which the other test files that start the CLI are running at the same time.
    const checkout = join(work, 'checkout');
    const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT);
    for (const file of listed.split('\0'))
      if (file && existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(checkout, file));
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    run('npm', ['pack', '--pack-destination', work], checkout);
    tarball = join(
      work,
      readdirSync(work).find((f) => f.endsWith('.tgz'))!,
    );
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], project);
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships the compiled code, the contract, the dashboard and the types, but no sources or tests', () => {
    const files = run('tar', ['-tzf', tarball], work).split('\n');
    for (const f of [
      'dist/bin.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/generated/api.d.ts',
      'openapi.yaml',
      'public/ui/index.html',
      'public/ui/app.js',
      'fixtures/test-accounts.json',
    ])
      expect(files, f).toContain(`package/${f}`);
    expect(files.filter((f) => /^package\/(src|test|examples)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.(js|d\.ts|js\.map)$/.test(f))).toEqual([]); // unit tests beside sources
  });

  it('runs `npx marketplace-sandbox --version`', () => {
    expect(run('npx', ['--no-install', 'marketplace-sandbox', '--version'], project).trim()).toBe(VERSION);
  });

  /** Starts the installed CLI and stops it (SIGTERM) the moment its ready line is read; the exit code. */
  async function startAndStop(): Promise<number | null> {
    const child = spawn(
      process.execPath,
      [join(dist, 'bin.js'), '--in-memory', '--listings', '20', '--port', '0', '--host', '127.0.0.1'],
      { cwd: project, env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForReady(child);
    child.kill('SIGTERM');
    return exitOf(child);
  }

  it('stops cleanly on a SIGTERM sent the moment the ready line is read', async () => {
    // The signal handlers are in place before the ready line: when they came after it, about
    // half of such stops killed the bundled CLI instead (exit by signal, no flush).
    for (let run = 0; run < 6; run++) expect(await startAndStop()).toBe(0);
  });

  it('imports startSandbox from the installed package and serves API, docs and dashboard', () => {
    const script = `
      import { startSandbox } from 'marketplace-sandbox';
      const sandbox = await startSandbox({ seed: 3, clockStart: '2026-01-01T00:00:00Z' });
      const health = await (await fetch(sandbox.url + '/__sandbox/health')).json();
      const clock = await sandbox.clock.advance('25h');
      const ui = (await fetch(sandbox.url + '/__sandbox/ui')).status;
      const docs = (await fetch(sandbox.url + '/docs/assets/swagger-ui-bundle.js')).status;
      await sandbox.close();
      console.log(JSON.stringify({ health, clock, ui, docs }));`;
    const out = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script], project)) as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({
      health: { status: 'ok', seed: 3 },
      clock: { now: expect.stringMatching(/^2026-01-02T/) },
      ui: 200,
      docs: 200,
    });
  });

  it('type-checks a consumer that uses the exported types', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { startSandbox, type Sandbox, type paths } from 'marketplace-sandbox';
       type LoginBody = paths['/api/auth/login']['post']['requestBody'];
       export const body: NonNullable<LoginBody>['content']['application/json'] = { email: 'a@b.c', password: 'x' };
       export const started: Promise<Sandbox> = startSandbox({ seed: 1, listings: 10 });\n`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    expect(() => run(process.execPath, [TSC, '-p', '.'], project)).not.toThrow();
  });
});
