import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lineCount, longFiles, MAX_LINES } from '../../scripts/checks/file-size.js';
import { generatedShapes, parse, restatements } from '../../scripts/checks/restated-types.js';

const ROOT = join(import.meta.dirname, '../..');
const dirs: string[] = [];
const tempTree = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'checks-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the restated-type check', () => {
  const generated = generatedShapes(
    parse(
      'api.ts',
      `export interface components { schemas: {
        Listing: { id: string; title: string; price_cents: number };
        ListingType: "mall" | "classifieds" | "auction";
        Pair: { a: string; b: string };
      } }`,
    ),
  );
  const check = (text: string) => restatements([parse('src/x.ts', text)], generated);

  it('finds an interface, a type literal in a cast and a string union written out again', () => {
    const found = check(`
      export interface ListingView { id: string; title: string; price_cents: number }
      const body = req.body as { price_cents: number; title: string; id: string };
      type Kind = 'auction' | 'mall' | 'classifieds';`);
    expect(found.map((f) => [f.line, f.what, f.generated])).toEqual([
      [2, 'interface ListingView', 'components.schemas.Listing'],
      [3, 'type literal', 'components.schemas.Listing'],
      [4, 'string union', 'components.schemas.ListingType'],
    ]);
  });

  it('counts what an interface extends', () => {
    const found = check(`
      interface Base { id: string; title: string }
      export interface View extends Base { price_cents: number }`);
    expect(found.map((f) => f.what)).toEqual(['interface View']);
  });

  it('leaves named, extended, two-name and explained shapes alone', () => {
    expect(
      check(`
      type Listing = Schema<'Listing'>;
      type Row = Schema<'Listing'> & { seller_id: string };
      interface Pair { a: string; b: string }
      type More = { id: string; title: string; price_cents: number; seller_id: string };
      // Not the contract's type: the same names, but counts of what was changed.
      interface Summary { id: number; title: number; price_cents: number }`),
    ).toEqual([]);
  });
});

describe('the file-size check', () => {
  it('counts lines as an editor does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([0, 1, 1, 2]);
  });

  it('names source files over the limit, but not generated, vendored or non-source files', () => {
    const long = 'x;\n'.repeat(MAX_LINES + 1);
    const root = tempTree({
      'src/big.ts': long,
      'src/ok.ts': 'x;\n'.repeat(MAX_LINES),
      'src/generated/api.ts': long,
      'public/vendor/lib.js': long,
      'public/ui/page.css': long,
      'docs/long.md': long,
      'node_modules/dep/index.js': long,
    });
    expect(longFiles(root)).toEqual([
      { file: 'public/ui/page.css', lines: MAX_LINES + 1 },
      { file: 'src/big.ts', lines: MAX_LINES + 1 },
    ]);
  });
});

describe('the import-circle check', () => {
  const depcruise = (dir: string) =>
    spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), [dir, '--config', '.dependency-cruiser.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
    });

  it('refuses a circle, even one made of type-only imports', () => {
    const dir = tempTree({
      'a.ts': "import type { B } from './b.js';\nexport interface A { b: B }\n",
      'b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
    });
    const run = depcruise(dir);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('no-circular');
  });

  it('lets a tree of imports through', () => {
    const dir = tempTree({
      'a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
      'b.ts': 'export const b = 1;\n',
    });
    expect(depcruise(dir).status).toBe(0);
  });
});
