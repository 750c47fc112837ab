import { access, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SnapshotFile, StoreFileError, syncDirectory } from './file-adapter.js';
import type { Changes, DirtyTracker } from './dirty-tracker.js';
import { SnapshotWriter } from './snapshot.js';
import type { Db } from './types.js';

/** A change log larger than this (and than the snapshot) is folded into a new snapshot. */
export const MIN_COMPACT_BYTES = 4 * 1024 * 1024;

/**
 * The file store's layout: `db.json`, a whole-database snapshot (always a complete, parsable
 * database, written atomically), plus `db.json.changes`, an append-only list of the top-level
 * collections each flush changed. A flush that touches a few collections appends one line and
 * fdatasyncs it (kilobytes), instead of rewriting a file of many megabytes; once the change log
 * outgrows the snapshot, the next flush writes a new snapshot and starts a new change log.
 *
 * The change log's first line names the snapshot it continues (`meta.snapshot_id`); a change log left
 * from before a snapshot is ignored. A torn last line (a crash mid-append, never acknowledged)
 * is ignored; any other unparsable line stops start-up with a message naming the file.
 */
export class ChangeLogFile {
  readonly changesPath: string;
  private readonly snapshot: SnapshotFile;
  private handle?: FileHandle;
  private changesBytes = 0;
  private snapshotBytes = 0;
  private lastSnapshot = 0;

  constructor(readonly path: string) {
    this.changesPath = `${path}.changes`;
    this.snapshot = new SnapshotFile(path);
  }

  /** The database as of the last acknowledged flush, or null when there is no file yet. */
  async read(): Promise<Db | null> {
    const db = await this.snapshot.read();
    if (db === null) return null;
    this.lastSnapshot = snapshotNumber(db);
    await adoptLegacyLog(this.path, this.changesPath);
    let text: string;
    try {
      text = await readFile(this.changesPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return db;
      throw new StoreFileError(`Cannot read change log ${this.changesPath}: ${(err as Error).message}`);
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const header = parseLine(lines[0] ?? '') as { snapshot?: string } | undefined;
    if (!header || !db.meta.snapshot_id || header.snapshot !== db.meta.snapshot_id) return db;
    for (let i = 1; i < lines.length; i++) {
      const entry = parseLine(lines[i]);
      if (entry === undefined && i === lines.length - 1) break;
      if (entry === undefined || typeof entry !== 'object' || entry === null)
        throw new StoreFileError(
          `Change log ${this.changesPath} is damaged at line ${i + 1}; it was left untouched. ` +
            'Move it and the database file away, or start with --reset to rebuild from the seed.',
        );
      applyEntry(db, entry as Entry);
    }
    return db;
  }

  /**
   * Removes the change log before a new database is created in this file (`--reset`, first start), so
   * no change log of an earlier life can ever be applied to the new snapshot.
   */
  async discardChangeLog(): Promise<void> {
    await rm(this.changesPath, { force: true });
  }

  /** True when the next flush should write a whole snapshot rather than append. */
  shouldCompact(): boolean {
    return !this.handle || this.changesBytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes);
  }

  /** Appends what changed (whole values and single records) and waits until it is on disk. */
  async append(db: Db, changes: Changes): Promise<void> {
    if (!this.handle) throw new Error('change log: append before the first snapshot');
    const bytes = Buffer.from(`${JSON.stringify(entryOf(db, changes))}\n`);
    await this.handle.write(bytes);
    await this.handle.datasync();
    this.changesBytes += bytes.length;
  }

  /**
   * Writes a new snapshot (atomically, streamed a chunk at a time), then a fresh change log that
   * continues it. Changes made meanwhile reach the snapshot writer through `tracker` first, so
   * the snapshot is the database as it was when the compaction began (snapshot.ts).
   */
  async compact(db: Db, tracker?: DirtyTracker<Db>): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    // Snapshot ids count up per file (deterministic: a fresh seed's file is byte-identical);
    // a change log naming any other id was left over from before this snapshot and is ignored.
    this.lastSnapshot = Math.max(this.lastSnapshot, snapshotNumber(db)) + 1;
    db.meta.snapshot_id = String(this.lastSnapshot);
    const writer = new SnapshotWriter(db);
    tracker?.watch((name, id) => writer.reach(name, id));
    try {
      this.snapshotBytes = await this.snapshot.write((handle) => writer.write(handle));
    } finally {
      tracker?.watch(undefined);
    }
    const header = Buffer.from(`${JSON.stringify({ snapshot: db.meta.snapshot_id })}\n`);
    const tmp = `${this.changesPath}.${process.pid}.tmp`;
    const fresh = await open(tmp, 'w');
    try {
      await fresh.writeFile(header);
      await fresh.sync();
    } finally {
      await fresh.close();
    }
    await rename(tmp, this.changesPath);
    await syncDirectory(dirname(this.changesPath));
    this.handle = await open(this.changesPath, 'a');
    this.changesBytes = header.length;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}

/**
 * Sandboxes before 0.2 kept the change log in `<file>.journal`: a file with only that name is
 * renamed, so an existing sandbox opens with every write it acknowledged.
 */
async function adoptLegacyLog(path: string, changesPath: string): Promise<void> {
  const legacy = `${path}.journal`;
  try {
    await access(changesPath);
  } catch {
    await rename(legacy, changesPath).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}

/** One change log line: top-level values to replace, and records to set (`null`: delete). */
type Entry = Record<string, unknown> & { $records?: Record<string, Record<string, unknown>> };

function entryOf(db: Db, changes: Changes): Entry {
  const data = db as unknown as Record<string, unknown>;
  const entry: Entry = {};
  for (const key of changes.whole) if (Object.hasOwn(data, key)) entry[key] = data[key];
  for (const [name, ids] of changes.records) {
    if (changes.whole.has(name) || !Object.hasOwn(data, name)) continue;
    const collection = data[name] as Record<string, unknown>;
    const records: Record<string, unknown> = {};
    for (const id of ids) {
      const value = Object.hasOwn(collection, id) ? collection[id] : null;
      Object.defineProperty(records, id, { value, enumerable: true, writable: true, configurable: true });
    }
    (entry.$records ??= {})[name] = records;
  }
  return entry;
}

function applyEntry(db: Db, entry: Entry): void {
  const data = db as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(entry)) if (key !== '$records') data[key] = value;
  for (const [name, records] of Object.entries(entry.$records ?? {})) {
    const collection = (data[name] ??= {}) as Record<string, unknown>;
    for (const [id, value] of Object.entries(records)) {
      if (value === null) {
        if (Object.hasOwn(collection, id)) delete collection[id];
      } else
        Object.defineProperty(collection, id, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** The snapshot's number (ids of older files that are not numbers count as 0). */
function snapshotNumber(db: Db): number {
  const n = Number(db.meta.snapshot_id);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
