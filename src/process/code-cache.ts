import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** What became of the cache file on this load. */
export type CacheUse = 'used' | 'missing' | 'stale' | 'rejected';

export interface LoadedScript {
  /** The script's `module.exports`. */
  exports: unknown;
  cache: CacheUse;
  /**
   * Replaces the cache file with what V8 has compiled of the script so far (functions compiled
   * since the load included), unless the file was used; a location it cannot write is skipped.
   */
  save(): void;
}

/** Starts a cache file; the version changes whenever the layout below does. */
const MAGIC = Buffer.from('sandbox-v8-cache-1\n');
const HASH_BYTES = 32;
const HEADER_BYTES = MAGIC.length + 2 * HASH_BYTES;

/** One cache per Node version and architecture, next to the script (a Node upgrade keeps its own). */
export function cachePathOf(scriptPath: string): string {
  return `${scriptPath}.${process.version}-${process.arch}.v8-cache`;
}

/**
 * Runs a CommonJS file the way `require` would, but through `vm.Script` with V8's code cache:
 * Node 20 has no compile cache of its own (`module.enableCompileCache` is Node 22+), and for a
 * bundle of a few MB compiling is a large part of the start.
 *
 * The cache file holds a hash of the script it was made from and of V8's data. V8 itself only
 * compares the source's length (and its version and flags), and does not checksum the data in a
 * release build: a cache of another script of the same length would run that script's code, and
 * a torn or damaged file could crash the process. So a file whose hashes do not match is never
 * handed to V8, and one V8 rejects (other flags, another V8) is replaced by the next save.
 */
export function loadScript(scriptPath: string, cachePath = cachePathOf(scriptPath)): LoadedScript {
  const bytes = readFileSync(scriptPath);
  const sourceHash = sha256(bytes);
  const { data, use } = readCache(cachePath, sourceHash);
  // A one-byte string is several times cheaper to make than a two-byte one, and V8 keeps it so.
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // Node's CommonJS wrapper; a `#!` line becomes a comment of the same length (positions unchanged).
  const source = text.startsWith('#!') ? `//${text.slice(2)}` : text;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: scriptPath,
    cachedData: data,
  });
  const cache: CacheUse = data === undefined ? use : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(scriptPath),
    module,
    scriptPath,
    dirname(scriptPath),
  );
  return {
    get exports() {
      return module.exports;
    },
    cache,
    save() {
      if (cache !== 'used') writeCache(cachePath, sourceHash, script);
    },
  };
}

function readCache(path: string, sourceHash: Buffer): { data?: Buffer; use: CacheUse } {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return { use: 'missing' };
  }
  const data = file.subarray(HEADER_BYTES);
  const fits =
    file.length > HEADER_BYTES &&
    file.subarray(0, MAGIC.length).equals(MAGIC) &&
    file.subarray(MAGIC.length, MAGIC.length + HASH_BYTES).equals(sourceHash) &&
    file.subarray(MAGIC.length + HASH_BYTES, HEADER_BYTES).equals(sha256(data));
  return fits ? { data, use: 'used' } : { use: 'stale' };
}

function writeCache(path: string, sourceHash: Buffer, script: Script): void {
  try {
    // Checked first: serializing costs more than the check, and a read-only install never writes.
    accessSync(dirname(path), constants.W_OK);
  } catch {
    return;
  }
  const data = script.createCachedData();
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    // Written whole under another name, then renamed: a reader sees the old file or the new one.
    // Not fsynced: a file torn by a crash fails its hash and is only a cache miss.
    writeFileSync(tmp, Buffer.concat([MAGIC, sourceHash, sha256(data), data]));
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

const sha256 = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();
