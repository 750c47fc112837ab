import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScript } from './code-cache.js';
import { boundHeapGrowth, withStartFlags } from './heap.js';

describe('withStartFlags', () => {
  // The CLI compiles its bundle before it bounds the heap growth and saves the code cache after
  // (launch.ts): a cache saved under the bound would be rejected by every next start.
  it('saves a code cache the next start (flags as at start-up) accepts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heap-flags-'));
    const path = join(dir, 'bundle.cjs');
    writeFileSync(path, 'module.exports = { answer: 42 };\n');
    const cache = join(dir, 'bundle.cache');
    let copies = 0;
    // A new file name per load, so V8 compiles (and checks the cache) each time.
    const nextStart = () => {
      const copy = join(dir, `bundle-${++copies}.cjs`);
      copyFileSync(path, copy);
      return withStartFlags(() => loadScript(copy, cache));
    };

    const first = loadScript(path, cache);
    boundHeapGrowth();
    first.save();
    expect(nextStart().cache).toBe('rejected');

    const again = nextStart();
    withStartFlags(() => again.save());
    const next = nextStart();
    expect(next.cache).toBe('used');
    expect(next.exports).toEqual({ answer: 42 });
  });
});
