import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * openapi.yaml as third-party tools read it: Redocly CLI (its `recommended` rules, redocly.yaml)
 * and Spectral (`spectral:oas`, .spectral.yaml), both pinned dev dependencies. Each runs with
 * test/contract/deny-network.mjs preloaded, so a run that tries to reach the network (telemetry,
 * an update check, a remote ruleset) is caught here rather than hanging or failing in CI.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DENY_NETWORK = join(ROOT, 'test/contract/deny-network.mjs');
const work = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  stdout: string;
  networkAttempts: string[];
}

async function lint(tool: 'redocly' | 'spectral', file: string): Promise<Run> {
  const log = join(work, `${tool}-${Math.random().toString(36).slice(2)}.log`);
  const args =
    tool === 'redocly'
      ? ['lint', file, '--format=json']
      : ['lint', file, '--format=json', '--quiet', '--ruleset', join(ROOT, '.spectral.yaml')];
  const env = {
    ...process.env,
    NODE_OPTIONS: `--import=${DENY_NETWORK}`,
    DENY_NETWORK_LOG: log,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  };
  const bin = join(ROOT, 'node_modules/.bin', tool);
  // Both exit 1 when they find errors; the verdict is read from their JSON either way.
  const { stdout } = await promisify(execFile)(bin, args, { cwd: ROOT, env, maxBuffer: 32 << 20 }).catch(
    (err: { stdout?: string; stderr?: string }) => {
      if (!err.stdout) throw new Error(`${tool} failed: ${err.stderr ?? String(err)}`);
      return { stdout: err.stdout };
    },
  );
  const networkAttempts = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { stdout, networkAttempts };
}

type RedoclyReport = { totals: { errors: number; warnings: number }; problems: { ruleId: string }[] };
type SpectralReport = { code: string; severity: number; message: string; path: string[] }[];

const redoclyProblems = (run: Run) => {
  const report = JSON.parse(run.stdout) as RedoclyReport;
  return { totals: report.totals, rules: report.problems.map((p) => p.ruleId) };
};
const spectralProblems = (run: Run) =>
  (JSON.parse(run.stdout) as SpectralReport).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);

describe('openapi.yaml as third-party linters read it', () => {
  it('Redocly CLI (recommended rules) reports no error and no warning, without touching the network', async () => {
    const run = await lint('redocly', join(ROOT, 'openapi.yaml'));
    expect(redoclyProblems(run)).toEqual({ totals: { errors: 0, warnings: 0, ignored: 0 }, rules: [] });
    expect(run.networkAttempts).toEqual([]);
  });

  it('Spectral (spectral:oas) reports no problem of any severity, without touching the network', async () => {
    const run = await lint('spectral', join(ROOT, 'openapi.yaml'));
    expect(spectralProblems(run)).toEqual([]);
    expect(run.networkAttempts).toEqual([]);
  });

  it('the network guard itself records and refuses a connection (the host is never resolved or reached)', async () => {
    const log = join(work, 'guard.log');
    const script = "fetch('http://example.invalid/').catch(() => process.exit(3))";
    const code = await promisify(execFile)(process.execPath, ['--import', DENY_NETWORK, '-e', script], {
      env: { ...process.env, DENY_NETWORK_LOG: log },
    }).then(
      () => 0,
      (err: { code: number }) => err.code,
    );
    expect(code).toBe(3);
    expect(readFileSync(log, 'utf8')).toContain('example.invalid');
  });

  it('both would catch an example that breaks its schema (an unquoted comma in a YAML flow map)', async () => {
    const broken = join(work, 'broken.yaml');
    writeFileSync(broken, BROKEN_SPEC);
    const redocly = redoclyProblems(await lint('redocly', broken));
    expect(redocly.rules).toContain('no-invalid-media-type-examples');
    const spectral = spectralProblems(await lint('spectral', broken));
    expect(spectral.some((p) => p.startsWith('oas3-valid-media-example'))).toBe(true);
  });
});

/** A small contract whose only fault is the one openapi.yaml's forgot-password example used to have. */
const BROKEN_SPEC = `openapi: 3.0.3
info: { title: t, version: '1', description: d, license: { name: MIT, url: https://spdx.org/licenses/MIT.html } }
servers: [{ url: / }]
tags: [{ name: a, description: a }]
paths:
  /a:
    get:
      tags: [a]
      operationId: a
      summary: a
      description: a
      security: []
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, additionalProperties: false, properties: { message: { type: string } } }
              example: { message: If an account exists, a link was sent. }
        '400': { description: bad }
`;
