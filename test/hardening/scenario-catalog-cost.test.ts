import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSandbox } from '../helpers/sandbox.js';
import { REQUEST_CPU_BUDGET_MS, withCpu } from '../helpers/server-cpu.js';

// Issue 14, One request must never freeze the process: listing the scenario catalogue parsed and
// checked every scenario file on every call, and the first call of a process also compiled the
// files' schema (docs/security.md T29 has the figures). What a file gave is kept by its text and
// the schema is compiled ahead of time, so a listing costs a directory read and a copy; the first
// one of a process also reads each file once.

/**
 * A listing's CPU time (this thread: the sandbox runs in this process), in ms; throws where it
 * cannot be read (test/helpers/server-cpu.ts).
 */
async function listingCost(sb: Awaited<ReturnType<typeof makeSandbox>>) {
  const { result: res, cpuMs } = await withCpu(async () => await sb.http.get('/__sandbox/scenarios/catalog'));
  expect(res.status).toBe(200);
  return {
    body: res.body as { files: { name: string; description: string; error: string | null }[] },
    cpuMs,
  };
}

const file = (name: string, description: string) => `name: ${name}\ndescription: ${description}\n`;

describe('the scenario catalogue', () => {
  it('is listed at the cost of a directory read once its files are read', async () => {
    const sb = await makeSandbox();
    // The first listing reads the files; the client's own first check of this answer compiles
    // its schema: not the cost of a listing.
    await sb.http.get('/__sandbox/scenarios/catalog');
    const costs: number[] = [];
    for (let i = 0; i < 5; i += 1) costs.push((await listingCost(sb)).cpuMs);
    // A directory read and a copy: a small share of one request's budget, most of the measured
    // time being the test client's contract check of the answer.
    expect(Math.min(...costs)).toBeLessThan(REQUEST_CPU_BUDGET_MS / 10);
  });

  it('shows a file as it is now, whenever it changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    writeFileSync(join(dir, 'one.yaml'), file('one', 'first'));
    const sb = await makeSandbox({ scenariosDir: dir });
    expect((await listingCost(sb)).body.files).toEqual([
      { name: 'one', description: 'first', steps: 0, error: null },
    ]);
    // Same size, same second: only the text tells the change.
    writeFileSync(join(dir, 'one.yaml'), file('one', 'other'));
    expect((await listingCost(sb)).body.files[0]).toMatchObject({ description: 'other', error: null });
    writeFileSync(join(dir, 'one.yaml'), file('two', 'other'));
    expect((await listingCost(sb)).body.files[0].error).toMatch(/name "two" must equal the file name "one"/);
    writeFileSync(join(dir, 'one.yaml'), file('one', 'fixed'));
    expect((await listingCost(sb)).body.files[0]).toMatchObject({ description: 'fixed', error: null });
  });
});
