import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckoutFlow } from '../../examples/checkout-flow.js';
import { startSandbox, type Sandbox } from '../../src/index.js';

const ROOT = new URL('../../', import.meta.url);

describe('types generated from openapi.yaml', () => {
  it('src/generated/api.ts is what `npm run gen:types` makes from the current openapi.yaml', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gen-types-')), 'api.ts');
    execFileSync(
      process.execPath,
      ['node_modules/openapi-typescript/bin/cli.js', 'openapi.yaml', '-o', out],
      {
        cwd: ROOT,
        stdio: 'pipe',
      },
    );
    const committed = readFileSync(new URL('src/generated/api.ts', ROOT), 'utf8');
    expect(
      committed === readFileSync(out, 'utf8'),
      'src/generated/api.ts is stale: run `npm run gen:types`',
    ).toBe(true);
  });
});

describe('examples/checkout-flow.ts against an in-process sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ listings: 40 });
  });
  afterAll(() => sandbox.close());

  it('logs in, searches and checks out (steps this build lacks are skipped, saying why)', async () => {
    const lines: string[] = [];
    const results = await runCheckoutFlow(sandbox.url, (line) => lines.push(line));
    console.log(lines.join('\n'));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.map((r) => r.step)).toEqual(
      expect.arrayContaining(['log in', 'who am I', 'wallet balance']),
    );
    for (const step of ['search', 'checkout']) {
      const ran = results.some((r) => r.step === step) || lines.some((l) => l.startsWith(`skip ${step}`));
      expect(ran, `${step} either ran or printed why not`).toBe(true);
    }
  });
});
