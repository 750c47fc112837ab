import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachePathOf, loadScript } from './code-cache.js';

/** A CommonJS script whose exports show which text ran (and that it ran as a module would). */
const script = (value: string) =>
  [
    '#!/usr/bin/env node',
    "'use strict';",
    'const { basename } = require("node:path");',
    `const value = ${JSON.stringify(value)};`,
    'function shout(s) { return s.toUpperCase(); }',
    'let frozenWrite;',
    'try { Object.freeze([1])[0] = 2; } catch (err) { frozenWrite = err.constructor.name; }',
    'module.exports = { value, loud: shout(value), file: basename(__filename), dir: basename(__dirname), self: this === exports, frozenWrite };',
  ].join('\n');

function setup(value = 'first') {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  const path = join(dir, 'bundle.cjs');
  writeFileSync(path, script(value));
  const cache = cachePathOf(path);
  let copies = 0;
  /**
   * Loads the script (with its one cache file) from a new file name each time: V8 keeps the
   * scripts it compiled in memory, by text and name, and would not even look at the cache
   * for a text it compiled before under the same name.
   */
  const load = () => {
    const copy = join(dir, `bundle-${++copies}.cjs`);
    copyFileSync(path, copy);
    return loadScript(copy, cache);
  };
  return { dir, path, cache, load };
}

const valueOf = (exports: unknown) => (exports as { value: string }).value;

describe('loadScript', () => {
  it('runs a CommonJS file as require would, then from the cache it saved', () => {
    const { dir, path, cache, load } = setup();
    const first = loadScript(path);
    expect(first.cache).toBe('missing');
    expect(first.exports).toEqual({
      value: 'first',
      loud: 'FIRST',
      file: 'bundle.cjs',
      dir: basename(dir),
      self: true,
      frozenWrite: 'TypeError', // the script's 'use strict' still applies inside the wrapper
    });
    first.save();
    const saved = readFileSync(cache);

    const second = load();
    expect(second.cache).toBe('used');
    expect(second.exports).toEqual({ ...(first.exports as object), file: 'bundle-1.cjs' });
    second.save(); // a cache that was used is left as it is
    expect(readFileSync(cache).equals(saved)).toBe(true);
  });

  it('ignores the cache of another text of the same length (V8 only compares lengths)', () => {
    const { path, load } = setup('AAAA');
    loadScript(path).save();
    writeFileSync(path, script('BBBB'));

    const changed = load();
    expect(changed.cache).toBe('stale');
    expect(valueOf(changed.exports)).toBe('BBBB');
    changed.save();
    expect(load().cache).toBe('used');
  });

  it('never hands damaged or truncated data to V8, and replaces it', () => {
    const { path, cache, load } = setup();
    loadScript(path).save();
    const good = readFileSync(cache);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 100] ^= 0xff;
    writeFileSync(cache, flipped);
    const damaged = load();
    expect(damaged.cache).toBe('stale');
    expect(valueOf(damaged.exports)).toBe('first');

    writeFileSync(cache, good.subarray(0, good.length >> 1));
    expect(load().cache).toBe('stale');
    writeFileSync(cache, 'not a cache');
    const garbage = load();
    expect(garbage.cache).toBe('stale');
    garbage.save();
    expect(load().cache).toBe('used');
  });

  it('runs from source when V8 rejects the data, and replaces it', () => {
    const { path, cache, load } = setup();
    loadScript(path).save();
    const good = readFileSync(cache);
    // A well-formed file (both hashes match) whose data V8 does not accept: what the data of
    // another V8 version, or of other V8 flags, is to this process.
    const dataHashAt = good.indexOf('\n') + 1 + 32; // after the magic line and the source's hash
    const data = Buffer.alloc(4096, 7);
    const digest = createHash('sha256').update(data).digest();
    writeFileSync(cache, Buffer.concat([good.subarray(0, dataHashAt), digest, data]));

    const rejected = load();
    expect(rejected.cache).toBe('rejected');
    expect(valueOf(rejected.exports)).toBe('first');
    rejected.save();
    expect(load().cache).toBe('used');
  });

  it('skips saving where it cannot write', () => {
    const { path, dir } = setup();
    const nowhere = join(dir, 'missing-dir', 'bundle.cache');
    expect(() => loadScript(path, nowhere).save()).not.toThrow();
    expect(loadScript(path, nowhere).cache).toBe('missing');
  });
});
