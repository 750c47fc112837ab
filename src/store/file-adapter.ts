import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { shapeProblem, withAllCollections } from './db-shape.js';
import { readSnapshot, SnapshotParseError } from './snapshot-reader.js';
import type { Db } from './types.js';

/** The database file exists but cannot be used; start-up stops with this message (one line). */
export class StoreFileError extends Error {}

/** The way out of files the sandbox cannot read, the same in every message. */
export const wayOut = (files: string) =>
  `it was left untouched. Move ${files} away, or start with --reset to rebuild the database from the seed`;

/** A StoreFileError's message without its way out (a named sandbox has another, registry.ts). */
export const withoutWayOut = (message: string) =>
  message.replace(
    /;\s*it was left untouched\. Move .* away, or start with --reset to rebuild the database from the seed\.?$/,
    '',
  );

/**
 * The snapshot file (`db.json`): read and written a record at a time (snapshot.ts), written to
 * a temporary file, fsynced, then renamed over the old one, so a crash at any moment leaves
 * either the old or the new database, never a torn one. The directory is fsynced after the
 * rename, so the new name itself survives a power loss.
 */
export class SnapshotFile {
  constructor(readonly path: string) {}

  private wayOut(): string {
    return wayOut(`it and ${basename(this.path)}.changes`);
  }

  /** The database, or null when there is no file; anything unusable is a StoreFileError. */
  async read(): Promise<Db | null> {
    let db: Db;
    try {
      db = await readSnapshot(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (err instanceof SnapshotParseError)
        throw new StoreFileError(
          `Database file ${this.path} is damaged (${err.line > 0 ? `line ${err.line}: ` : ''}${oneLine(err.message)}); ${this.wayOut()}.`,
        );
      throw new StoreFileError(`Cannot read database file ${this.path}: ${oneLine((err as Error).message)}`);
    }
    const problem = shapeProblem(db);
    if (problem)
      throw new StoreFileError(
        `Database file ${this.path} is not a sandbox database (${problem}); ${this.wayOut()}.`,
      );
    return withAllCollections(db);
  }

  /**
   * Replaces the file with what `fill` writes into a fresh handle (atomically, fsynced). Until
   * the rename nothing has changed (a failed write removes its temporary file); after it, the
   * new file is the database, so a failing directory sync does not undo the write.
   */
  async write<T>(fill: (handle: FileHandle) => Promise<T>): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = temporaryOf(this.path);
    let result: T;
    try {
      result = await writeAndSync(tmp, fill);
      await rename(tmp, this.path);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    await syncDirectory(dirname(this.path)).catch(() => undefined);
    return result;
  }
}

async function writeAndSync<T>(path: string, fill: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await open(path, 'w');
  try {
    const result = await fill(handle);
    await handle.sync();
    return result;
  } finally {
    await handle.close();
  }
}

/** The temporary file a write of `path` goes through before its rename. */
export const temporaryOf = (path: string) => `${path}.${process.pid}.tmp`;

/** Error messages of Node may hold newlines (a parse error's excerpt); start-up prints one line. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/**
 * Removes temporary files of `paths` (`<path>.<pid>.tmp`) left by a process killed during a
 * compaction: they never became the database (the rename is the commit). A file of a process
 * that still runs is left alone, unless it is this one (in a container the pid repeats).
 */
export async function removeLeftovers(paths: string[]): Promise<void> {
  const dir = dirname(paths[0]);
  const names = new Set(paths.map((p) => basename(p)));
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const match = /^(.*)\.(\d+)\.tmp$/.exec(entry);
    if (!match || !names.has(match[1])) continue;
    const pid = Number(match[2]);
    if (pid !== process.pid && isRunning(pid)) continue;
    await rm(join(dir, entry), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
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
