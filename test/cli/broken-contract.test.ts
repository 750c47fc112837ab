import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * A copy of the package as it ships (dist/ built by the tests' global setup, its data, the
 * dependencies) whose openapi.yaml is `contract`: the CLI reads the contract beside its dist/.
 */
function packageWith(contract: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-contract-'));
  for (const name of ['dist', 'fixtures', 'scenarios', 'public', 'package.json'])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'openapi.yaml'), contract);
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function start(dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['dist/bin.js', '--in-memory', '--port', '0', '--host', '127.0.0.1'],
    {
      cwd: dir,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // A start that goes on to its ready line would be the failure: stop it then.
  child.stdout.on('data', () => stdout.includes(' ready at ') && child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const shipped = readFileSync(join(ROOT, 'openapi.yaml'), 'utf8');

describe('a broken openapi.yaml', () => {
  it('that the request validator cannot load stops the start with one line naming why', async () => {
    const broken = shipped.replace(
      "schema: { $ref: '#/components/schemas/NewListing' }",
      "schema: { $ref: '#/components/schemas/NoSuchSchema' }",
    );
    expect(broken).not.toBe(shipped);
    const { code, stdout, stderr } = await start(packageWith(broken));
    expect(stdout).not.toContain(' ready at ');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^marketplace-sandbox: .*openapi\.yaml cannot be loaded by the request validator: .*NoSuchSchema/,
    );
  });

  it('that does not parse stops the start with one line naming why', async () => {
    const { code, stdout, stderr } = await start(packageWith(`${shipped}\npaths: [\n`));
    expect(stdout).not.toContain(' ready at ');
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^marketplace-sandbox: .*openapi\.yaml does not parse: /);
  });
});
