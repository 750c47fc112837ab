import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../../src/cli/replay.js';
import { checkMatcher, extract, interpolate, valueAt } from '../../src/scenarios/replay/expect.js';
import { toJUnit } from '../../src/scenarios/replay/junit.js';
import { missingOperation } from '../../src/scenarios/replay/runner.js';

const PASSING = `name: passing
description: Health and a forced 500.
steps:
  - name: health
    request: { method: GET, path: /__sandbox/health }
    expect: { status: 200, body: { status: ok } }
    save: { version: body.version }
  - name: forced error
    request: { method: GET, path: /api/shop/categories, headers: { X-Sandbox-Scenario: server.error } }
    expect: { status: 500, headers: { X-Sandbox-Scenario-Applied: server.error } }
`;

const FAILING = `name: failing
description: Expects the wrong status.
steps:
  - name: wrong status
    request: { method: GET, path: /__sandbox/health }
    expect: { status: 201, body: { status: { $match: '^bad' } } }
  - name: never runs
    request: { method: GET, path: /__sandbox/health }
`;

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runReplay(
    argv,
    (l) => lines.push(l),
    {},
    (l) => errors.push(l),
  );
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

describe('marketplace-sandbox replay', () => {
  it('runs a file against an in-process sandbox, prints each step and exits 0', async () => {
    const dir = dirWith({ 'passing.yaml': PASSING });
    const { code, out } = await run([join(dir, 'passing.yaml')]);
    expect(out).toContain('✓ passing');
    expect(out).toContain('✓ forced error (500');
    expect(out).toMatch(/1 passed, 0 failed$/);
    expect(code).toBe(0);
  });

  it('exits 1 on a failed expectation and writes JUnit XML', async () => {
    const dir = dirWith({ 'passing.yaml': PASSING, 'failing.yaml': FAILING });
    const junit = join(dir, 'report.xml');
    const { code, out } = await run([dir, '--junit', junit]);
    expect(code).toBe(1);
    expect(out).toContain('status 200, expected 201');
    expect(out).toContain('body.status "ok" does not match /^bad/');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="failing" tests="1" failures="1"');
    expect(xml).toContain('<testsuite name="passing" tests="2" failures="0"');
  });

  it('exits 2 on bad usage or a file that breaks the schema', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['a', 'b'])).code).toBe(2);
    expect((await run(['x', '--nope'])).code).toBe(2);
    const dir = dirWith({ 'broken.yaml': 'name: broken\ndescription: x\nsteps: [{ name: s }]\n' });
    const { code, out, err } = await run([dir]);
    expect(code).toBe(2);
    expect(err).toMatch(/broken.yaml: \/steps\/0 must have required property 'request'/);
    expect(out).toBe('');
  });

  it('runs against a URL and reports a sandbox it cannot reach', async () => {
    const dir = dirWith({ 'passing.yaml': PASSING });
    const { code, out } = await run([dir, '--url', 'http://127.0.0.1:9']);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ passing: /);
  });
});

describe('replay helpers', () => {
  it('match values, types, patterns and ranges', () => {
    expect(checkMatcher(3, 3)).toBeNull();
    expect(checkMatcher({ a: [1] }, { a: [1] })).toBeNull();
    expect(checkMatcher(3, 4)).toBe('is 3, expected 4');
    expect(checkMatcher(undefined, { $exists: false })).toBeNull();
    expect(checkMatcher(1, { $exists: false })).toBe('is present (1)');
    expect(checkMatcher(2, { $type: 'number', $gte: 1, $lte: 2 })).toBeNull();
    expect(checkMatcher('x', { $type: 'integer' })).toBe('is string, not integer');
    expect(checkMatcher([1, 2], { $length: 2 })).toBeNull();
    expect(checkMatcher(1, { $ne: 1 })).toBe('is 1');
    expect(checkMatcher(1, { $what: 1 })).toBe('unknown matcher $what');
  });

  it('interpolate saved variables and extract values', () => {
    expect(interpolate({ a: '${n}', b: 'id ${s}/x', c: ['${missing}'] }, { n: 5, s: 'q' })).toEqual({
      a: 5,
      b: 'id q/x',
      c: ['${missing}'],
    });
    const res = {
      body: { approvalUrl: 'http://h/sandbox/payprovider/pay_1?x=1', items: [{ id: 'i' }] },
      headers: { 'retry-after': '5' },
    };
    expect(extract(res, 'body.approvalUrl | last-segment')).toBe('pay_1');
    expect(extract(res, 'body.items.0.id')).toBe('i');
    expect(extract(res, 'headers.Retry-After')).toBe('5');
    expect(valueAt(null, 'a.b')).toBeUndefined();
  });

  it('find steps whose operation is not in openapi.yaml', () => {
    const file = {
      name: 'x',
      description: 'x',
      steps: [{ name: 'a', request: { method: 'GET', path: '/api/settings/api-keys' } }],
    };
    expect(missingOperation(file)).toBeNull();
    file.steps.push({ name: 'b', request: { method: 'POST', path: '/api/nowhere/${id}' } });
    expect(missingOperation(file)).toBe('POST /api/nowhere/${id}');
  });

  it('escape JUnit XML', () => {
    const xml = toJUnit([{ name: 'a&b', description: '', skipped: 'not "yet"', error: null, steps: [] }]);
    expect(xml).toContain('name="a&amp;b"');
    expect(xml).toContain('<skipped message="not &quot;yet&quot;"/>');
  });
});
