// The GitHub Actions workflows, checked offline by a real linter (@action-validator/cli validates
// each file against the published workflow schema it ships), then read for what the release must do.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';

const VALIDATOR = join(ROOT, 'node_modules/@action-validator/cli/cli.mjs');
const WORKFLOWS = join(ROOT, '.github/workflows');

async function lint(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [VALIDATOR, file]);
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { tags?: string[]; branches?: string[] } | null>;
  jobs: Record<string, Job>;
}
const workflow = (name: string) => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow;

describe('GitHub Actions workflows', () => {
  const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

  it('pass the workflow linter', async () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) {
      const { code, output } = await lint(join(WORKFLOWS, file));
      expect(code, `${file}: ${output}`).toBe(0);
    }
  });

  it('the linter refuses a broken workflow (so the check above can fail)', async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'workflow-')), 'bad.yml');
    writeFileSync(bad, 'name: bad\non: pushh\njobs:\n  a:\n    steps:\n      - run: echo\n');
    const { code, output } = await lint(bad);
    expect(code).toBe(1);
    expect(output).toContain('"path": "/jobs/a/runs-on"');
    expect(output).toContain('"path": "/on"');
  });

  it('CI runs .ci/run on every push to a branch (a tag runs it in the release)', () => {
    const ci = workflow('ci.yml');
    expect(Object.keys(ci.on)).toContain('push');
    expect(ci.on.push).toEqual({ branches: ['**'] });
    expect(Object.values(ci.jobs).flatMap((j) => j.steps.map((s) => s.run))).toContain('bash .ci/run');
  });

  it('a version tag tests, then pushes a two-platform image and publishes the npm package', () => {
    const release = workflow('release.yml');
    expect(release.on.push?.tags).toEqual(['v*.*.*']);
    const { test, image, npm } = release.jobs;
    expect(test.steps.map((s) => s.run)).toContain('bash .ci/run');
    expect([image.needs, npm.needs]).toEqual(['test', 'test']);

    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(build.with).toMatchObject({ platforms: 'linux/amd64,linux/arm64', push: true });
    const meta = image.steps.find((s) => s.uses?.startsWith('docker/metadata-action@'))!;
    expect(meta.with?.images).toMatch(/^ghcr\.io\/.+\/marketplace-sandbox$/);
    expect(meta.with?.tags).toContain('type=semver,pattern={{version}}');
    // latest moves only for a final version, never for a prerelease tag such as v0.2.0-rc.1
    expect(meta.with?.tags).toContain("type=raw,value=latest,enable=${{ !contains(github.ref_name, '-') }}");
    expect(image.steps.find((s) => s.uses?.startsWith('docker/login-action@'))?.with?.registry).toBe(
      'ghcr.io',
    );
    expect(image.permissions).toMatchObject({ packages: 'write' });

    const publish = npm.steps.find((s) => /npm publish/.test(s.run ?? ''))?.run ?? '';
    expect(publish).toMatch(/npm publish --provenance --access public --tag "\$tag"/);
    // npm refuses --provenance (E422) unless package.json's repository names the repository
    expect(publish.indexOf('npm pkg set repository.type=git')).toBeGreaterThanOrEqual(0);
    expect(publish).toContain('repository.url=git+https://github.com/${GITHUB_REPOSITORY}.git');
    expect(publish.indexOf('npm pkg set')).toBeLessThan(publish.indexOf('npm publish'));
    expect(publish).toMatch(/\*-\*\) tag=next/);
  });
});
