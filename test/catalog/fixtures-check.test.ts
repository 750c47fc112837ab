import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('fixtures/catalog (scripts/check-catalog.mjs)', () => {
  it('holds every subcategory with enough templates, every language, sane prices and stores', () => {
    let out: string;
    try {
      out = execFileSync(process.execPath, ['scripts/check-catalog.mjs'], { encoding: 'utf8' });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? error);
    }
    // The checker's own lines name every problem: file, template and what is wrong.
    expect(out.trim().split('\n').slice(0, -1)).toEqual([]);
    expect(out).toMatch(/templates checked, 0 problem\(s\)/);
  });
});
