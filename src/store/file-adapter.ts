import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

/** The database file exists but cannot be used; start-up stops with this message. */
export class StoreFileError extends Error {}

/**
 * A lowdb adapter for one JSON file: compact JSON (no pretty-printing, which costs time and
 * space at 100k listings), written to a temporary file, fsynced, then renamed over the old one,
 * so a crash at any moment leaves either the old or the new database, never a torn one. The
 * directory is fsynced after the rename, so the new name itself survives a power loss.
 */
export class CompactJsonFile<T> implements Adapter<T> {
  constructor(readonly path: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(`Cannot read database file ${this.path}: ${(err as Error).message}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new StoreFileError(
        `Database file ${this.path} cannot be parsed (${(err as Error).message}); ` +
          'it was left untouched. Move it away, or start with --reset to rebuild it from the seed.',
      );
    }
  }

  async write(data: T): Promise<void> {
    await this.writeText(JSON.stringify(data));
  }

  async writeText(text: string): Promise<void> {
    await this.writeChunks([Buffer.from(text, 'utf8')]);
  }

  /** Writes the file's new content given as consecutive pieces (atomically, fsynced). */
  async writeChunks(chunks: Buffer[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.path);
    await syncDirectory(dirname(this.path));
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
