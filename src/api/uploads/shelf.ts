import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/** A file being received: written chunk by chunk, then kept under a name or discarded. */
export interface Sink {
  write(chunk: Buffer): Promise<void>;
  /** Every byte written is durable (file) once this resolves. */
  close(): Promise<void>;
  keep(name: string): Promise<void>;
  discard(): Promise<void>;
}

/** A stored file: its size and its bytes as a stream (never read whole into memory). */
export interface StoredFile {
  size: number;
  stream(): Readable;
}

/**
 * Where one sandbox's uploaded bytes live: a directory of its own (file store) or a map (memory
 * store). Bookkeeping (the quota) is the caller's (space.ts).
 */
export interface Shelf {
  /** Bytes of the files kept; removes the files `keep` does not want (and unfinished parts). */
  measure(keep: (name: string) => boolean): Promise<number>;
  open(): Promise<Sink>;
  read(name: string): Promise<StoredFile | undefined>;
  /** Removes one file; returns the bytes freed. */
  remove(name: string): Promise<number>;
  /** Removes every file (parts being received stay). */
  clear(): Promise<void>;
}

/** Parts being received are hidden files of the same directory, so keeping one is a rename. */
const PART = /^\..*\.part$/;

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let done = 0;
  while (done < chunk.length) done += (await handle.write(chunk, done)).bytesWritten;
}

function fileSink(dir: string, handle: FileHandle, part: string): Sink {
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    write: (chunk) => writeAll(handle, chunk),
    async close() {
      await handle.sync();
      await close();
    },
    async keep(name) {
      await rename(part, join(dir, name));
      await syncDir(dir);
    },
    async discard() {
      await close().catch(() => undefined);
      await rm(part, { force: true });
    },
  };
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** A directory of its own per sandbox (world/sandbox-files.ts names it). */
export function fileShelf(dir: string): Shelf {
  return {
    async measure(keep) {
      let bytes = 0;
      for (const name of await namesIn(dir)) {
        const path = join(dir, name);
        if (PART.test(name) || !keep(name)) await rm(path, { force: true, recursive: true });
        else bytes += (await stat(path)).size;
      }
      return bytes;
    },
    async open() {
      await mkdir(dir, { recursive: true });
      const part = join(dir, `.${randomUUID()}.part`);
      return fileSink(dir, await open(part, 'wx'), part);
    },
    async read(name) {
      // Opened here: a reset that removes the file now cannot cut a response short.
      const handle = await open(join(dir, name), 'r').catch(() => null);
      if (!handle) return undefined;
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return undefined;
      }
      return { size: info.size, stream: () => handle.createReadStream() };
    },
    async remove(name) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      await rm(path, { force: true });
      return info?.size ?? 0;
    },
    async clear() {
      for (const name of await namesIn(dir))
        if (!PART.test(name)) await rm(join(dir, name), { force: true, recursive: true });
    },
  };
}

/** The memory store's uploads: gone with the process, like its data. */
export function memoryShelf(): Shelf {
  const files = new Map<string, Buffer>();
  return {
    async measure() {
      return 0;
    },
    async open() {
      let chunks: Buffer[] = [];
      return {
        write: async (chunk) => void chunks.push(chunk),
        // The bytes are joined only when kept: an upload refused after it arrived (a file that is
        // no image, an eleventh file) copied up to 50 MB for nothing.
        close: async () => undefined,
        keep: async (name) => {
          files.set(name, Buffer.concat(chunks));
          chunks = [];
        },
        async discard() {
          chunks = [];
        },
      };
    },
    async read(name) {
      const bytes = files.get(name);
      return bytes ? { size: bytes.length, stream: () => Readable.from([bytes]) } : undefined;
    },
    async remove(name) {
      const size = files.get(name)?.length ?? 0;
      files.delete(name);
      return size;
    },
    clear: async () => files.clear(),
  };
}
