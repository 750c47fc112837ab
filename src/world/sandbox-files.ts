import { readdir, rm, stat } from 'node:fs/promises';
import { removeLeftovers } from '../store/file-adapter.js';
import { dirname, join } from 'node:path';

/** Where a file-backed sandbox keeps its database: `<dir of --data>/sandboxes/`. */
export function sandboxDirOf(dataFile: string): string {
  return join(dirname(dataFile), 'sandboxes');
}

/**
 * The file name of a sandbox. Ids are case-sensitive but some file systems (macOS, Windows) are
 * not, so each capital letter is written as `+` and the lower-case letter (`Job-A` → `+job-+a.json`);
 * `+` is not allowed in ids, so the mapping is reversible.
 */
export function sandboxFileName(id: string): string {
  return `${id.replace(/[A-Z]/g, (c) => `+${c.toLowerCase()}`)}.json`;
}

/** The id stored in a file name, or null when the file is not a sandbox database. */
export function sandboxIdOfFileName(name: string): string | null {
  const match = /^((?:\+[a-z]|[a-z0-9_-])+)\.json$/.exec(name);
  if (!match) return null;
  const id = match[1].replace(/\+([a-z])/g, (_m, c: string) => c.toUpperCase());
  return id.length <= 64 ? id : null;
}

export interface StoredSandbox {
  id: string;
  path: string;
  bytes: number;
  modifiedMs: number;
}

/** Every sandbox database file in the directory (none when it does not exist yet). */
export async function storedSandboxes(dir: string): Promise<StoredSandbox[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: StoredSandbox[] = [];
  for (const name of names) {
    const id = sandboxIdOfFileName(name);
    if (id === null) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    const changeLog = await fileBytes(changeLogOf(path));
    if (info?.isFile()) out.push({ id, path, bytes: info.size + (changeLog ?? 0), modifiedMs: info.mtimeMs });
  }
  return out;
}

/** Size of a file in bytes, or null when it does not exist. */
export async function fileBytes(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null);
  return info ? info.size : null;
}

/** A file store keeps its recent writes in `<file>.changes` beside the snapshot (src/store/change-log.ts). */
const changeLogOf = (path: string) => `${path}.changes`;

/** Where the default sandbox keeps its uploaded images: `<dir of --data>/uploads/`. */
export function defaultUploadsDirOf(dataFile: string): string {
  return join(dirname(dataFile), 'uploads');
}

/**
 * Where a named sandbox keeps its uploaded images: beside its database, `<id file>.uploads/`
 * (`job-42.json` → `job-42.uploads/`), so no two sandboxes share a directory.
 */
export function sandboxUploadsDirOf(path: string): string {
  return `${path.replace(/\.json$/, '')}.uploads`;
}

/** Removes a sandbox database, its change log and its uploads (no error when they are already gone). */
export async function removeSandboxFile(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(changeLogOf(path), { force: true });
  await rm(sandboxUploadsDirOf(path), { recursive: true, force: true });
}

/**
 * What the files of a sandbox are now (size and time of its database and change log), to tell
 * whether an unreadable one was moved, removed or replaced since it was read.
 */
export async function filesSignature(path: string): Promise<string> {
  const parts = await Promise.all(
    [path, changeLogOf(path)].map(async (p) => {
      const info = await stat(p).catch(() => null);
      return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : '-';
    }),
  );
  return parts.join('/');
}

/**
 * Removes what compactions killed before their rename left in the sandboxes directory
 * (`<id>.json.<pid>.tmp`, `<id>.json.changes.<pid>.tmp`), at start, for every sandbox: each
 * is otherwise cleaned only when its sandbox is next used. A file of a process still running is kept.
 */
export async function removeSandboxLeftovers(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const bases = new Set<string>();
  for (const name of names) {
    const match = /^(.*\.json(?:\.changes)?)\.\d+\.tmp$/.exec(name);
    const base = match?.[1].replace(/\.changes$/, '');
    if (base !== undefined && sandboxIdOfFileName(base) !== null) bases.add(join(dir, base));
  }
  for (const base of bases) await removeLeftovers([base, changeLogOf(base)]);
}

/** Removes every stored sandbox and every sandbox's uploads (`--reset`: start everything from the seed). */
export async function removeAllSandboxFiles(dir: string): Promise<void> {
  for (const stored of await storedSandboxes(dir)) await removeSandboxFile(stored.path);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.uploads')))
    await rm(join(dir, name), { recursive: true, force: true });
}
