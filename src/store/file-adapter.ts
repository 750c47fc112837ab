import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readSnapshot, SnapshotParseError } from './snapshot-reader.js';
import type { Db } from './types.js';

/** The database file exists but cannot be used; start-up stops with this message. */
export class StoreFileError extends Error {}

/**
 * The snapshot file (`db.json`): read and written a record at a time (snapshot.ts), written to
 * a temporary file, fsynced, then renamed over the old one, so a crash at any moment leaves
 * either the old or the new database, never a torn one. The directory is fsynced after the
 * rename, so the new name itself survives a power loss.
 */
export class SnapshotFile {
  constructor(readonly path: string) {}

  async read(): Promise<Db | null> {
    try {
      return await readSnapshot(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (err instanceof SnapshotParseError)
        throw new StoreFileError(
          `Database file ${this.path} cannot be parsed (${err.line > 0 ? `line ${err.line}: ` : ''}${err.message}); ` +
            'it was left untouched. Move it away, or start with --reset to rebuild it from the seed.',
        );
      throw new StoreFileError(`Cannot read database file ${this.path}: ${(err as Error).message}`);
    }
  }

  /** Replaces the file with what `fill` writes into a fresh handle (atomically, fsynced). */
  async write<T>(fill: (handle: FileHandle) => Promise<T>): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    const handle = await open(tmp, 'w');
    let result: T;
    try {
      result = await fill(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.path);
    await syncDirectory(dirname(this.path));
    return result;
  }
}

/** fsync a directory (makes a rename in it durable); platforms that cannot open one skip it. */
export async function syncDirectory(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw err;
  } finally {
    await handle.close();
  }
}
