import { access, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { applyEntry, decodeLine, encodeLine, entryOf, isSummed } from './change-log-lines.js';
import { shapeProblem } from './db-shape.js';
import type { Changes, DirtyTracker } from './dirty-tracker.js';
import {
  removeLeftovers,
  SnapshotFile,
  StoreFileError,
  syncDirectory,
  temporaryOf,
  wayOut,
} from './file-adapter.js';
import { SnapshotWriter } from './snapshot.js';
import type { Db } from './types.js';

/** A change log larger than this (and than the snapshot) is folded into a new snapshot. */
export const MIN_COMPACT_BYTES = 4 * 1024 * 1024;
/**
 * At a clean close, a change log of more than this share of the snapshot (and over
 * {@link FOLD_MIN_BYTES}) is folded into a new snapshot, so the next start reads one file instead
 * of replaying it: a replay costs every start time in proportion to the change log, a fold costs
 * one close (docs/hardening.md, Durable writes, has the figures).
 */
const FOLD_SHARE = 1 / 8;
const FOLD_MIN_BYTES = 64 * 1024;

/**
 * The file store's layout: `db.json`, a whole-database snapshot (always complete, written
 * atomically, ending with its checksum), plus `db.json.changes`, an append-only list of what each
 * flush changed: single records and array elements, each line with its own checksum. A flush
 * appends one line and fdatasyncs it; once the change log outgrows the snapshot, the next flush
 * writes a new snapshot and starts a new change log.
 *
 * The change log's first line names the snapshot it continues (`meta.snapshot_id`). Reading:
 * a change log of an older snapshot (a crash between the two renames of a compaction) is ignored;
 * a torn last line (no newline: a crash mid-append, never acknowledged) is ignored; anything else
 * that does not read back (a bad checksum, a newer snapshot's log, a log without its snapshot)
 * stops start-up with a message naming the file, and no file is touched.
 */
export class ChangeLogFile {
  readonly changesPath: string;
  private readonly snapshot: SnapshotFile;
  private handle?: FileHandle;
  private changesBytes = 0;
  private snapshotBytes = 0;
  private lastSnapshot = 0;
  /** Set by {@link foldNext}: the next flush writes a snapshot. */
  private fold = false;

  constructor(readonly path: string) {
    this.changesPath = `${path}.changes`;
    this.snapshot = new SnapshotFile(path);
  }

  /** The database as of the last acknowledged flush, or null when there is no file yet. */
  async read(): Promise<Db | null> {
    const db = await this.snapshot.read();
    if (db === null) {
      await this.refuseOrphanLog();
      return null;
    }
    this.lastSnapshot = snapshotNumber(db);
    // Sandboxes before 0.2 kept the change log in `<file>.journal`; it is renamed once it has read back.
    const legacy = `${this.path}.journal`;
    const log = (await exists(this.changesPath)) || !(await exists(legacy)) ? this.changesPath : legacy;
    let text: string | undefined;
    try {
      text = await readFile(log, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new StoreFileError(`Cannot read change log ${log}: ${(err as Error).message}`);
    }
    // What a start replays: the next clean close folds it when it is long (worthFolding).
    this.snapshotBytes = (await stat(this.path)).size;
    this.changesBytes = text === undefined ? 0 : Buffer.byteLength(text);
    if (text !== undefined) {
      this.replay(db, text, log);
      const problem = shapeProblem(db);
      if (problem) damaged(log, this.path, 'its changes do not fit the database', problem);
      if (log === legacy) await rename(legacy, this.changesPath);
    }
    // Everything read back: what a killed compaction left can go.
    await removeLeftovers([this.path, this.changesPath]);
    return db;
  }

  /** Applies the change log to the snapshot `db`, or throws naming the first line that does not read back. */
  private replay(db: Db, text: string, log: string): void {
    const refuse = (what: string, detail?: string) => damaged(log, this.path, what, detail);
    const lines = text.split('\n');
    lines.pop(); // after the last newline: '' or a torn line, never acknowledged
    if (lines.length === 0) refuse('it has no whole first line');
    const summed = isSummed(lines[0]);
    const header = decodeLine(lines[0], summed) as { snapshot?: unknown } | undefined;
    if (typeof header?.snapshot !== 'string') refuse('line 1 does not read back');
    const continues = (header as { snapshot: string }).snapshot;
    const order = compareSnapshots(continues, db.meta.snapshot_id);
    if (order < 0) return;
    if (order > 0)
      refuse(
        `it continues snapshot ${continues}, but ${basename(this.path)} is snapshot ${db.meta.snapshot_id}`,
      );
    for (let i = 1; i < lines.length; i++) {
      const entry = decodeLine(lines[i], summed);
      if (entry === undefined) refuse(`line ${i + 1} does not read back`);
      const problem = applyEntry(db, entry);
      if (problem) refuse(`line ${i + 1} does not fit the database`, problem);
    }
  }

  /** A change log without its snapshot cannot be read; a new database must not replace it silently. */
  private async refuseOrphanLog(): Promise<void> {
    for (const log of [this.changesPath, `${this.path}.journal`])
      if (await exists(log))
        throw new StoreFileError(
          `Change log ${log} has no database file ${this.path} to continue; ${wayOut('it')}.`,
        );
  }

  /**
   * Removes the change log before a new database is created in this file (`--reset`, first start), so
   * no change log of an earlier life can ever be applied to the new snapshot.
   */
  async discardChangeLog(): Promise<void> {
    await rm(this.changesPath, { force: true });
    await removeLeftovers([this.path, this.changesPath]);
  }

  /**
   * Makes `changes` durable: one appended line, or a whole snapshot when everything changed or the
   * change log has outgrown the snapshot. A change log removed while open (rm, a deleted sandbox
   * directory) would take appends no restart sees, so then a snapshot is written as well.
   */
  async flush(db: Db, changes: Changes, tracker: DirtyTracker<Db>): Promise<void> {
    if (changes.all || this.shouldCompact()) return this.compact(db, tracker);
    await this.append(db, changes);
    if (await this.removed()) await this.compact(db, tracker);
  }

  /** True when the next flush should write a whole snapshot rather than append. */
  shouldCompact(): boolean {
    return this.fold || !this.handle || this.changesBytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes);
  }

  /** True when the change log is long enough that a start would be faster without replaying it. */
  worthFolding(): boolean {
    return this.changesBytes > Math.max(FOLD_MIN_BYTES, this.snapshotBytes * FOLD_SHARE);
  }

  /** Makes the next flush write a snapshot and a fresh change log (the store's close, store.ts). */
  foldNext(): void {
    this.fold = true;
  }

  /**
   * Appends what changed and waits until it is on disk. On failure the change log is cut back to
   * what it held (a line whose sync failed must not come back at the next start) and closed: the
   * next flush writes a whole snapshot.
   */
  async append(db: Db, changes: Changes): Promise<void> {
    const handle = this.handle;
    if (!handle) throw new Error('change log: append before the first snapshot');
    const bytes = encodeLine(entryOf(db, changes));
    try {
      for (let offset = 0; offset < bytes.length;) offset += (await handle.write(bytes, offset)).bytesWritten;
      await handle.datasync();
    } catch (err) {
      this.handle = undefined;
      await handle.truncate(this.changesBytes).catch(() => undefined);
      await handle.close().catch(() => undefined);
      throw err;
    }
    this.changesBytes += bytes.length;
  }

  /**
   * Writes a new snapshot (atomically, streamed a chunk at a time), then a fresh change log that
   * continues it. Changes made meanwhile reach the snapshot writer through `tracker` first, so
   * the snapshot is the database as it was when the compaction began (snapshot.ts). Once the
   * snapshot is renamed into place the flush is durable; if the fresh change log cannot be
   * started, the next flush writes a snapshot again.
   */
  async compact(db: Db, tracker?: DirtyTracker<Db>): Promise<void> {
    this.fold = false;
    await this.close().catch(() => undefined);
    // Snapshot ids count up per file (deterministic: a fresh seed's file is byte-identical);
    // a change log naming an older id was left over from before this snapshot and is ignored.
    this.lastSnapshot = Math.max(this.lastSnapshot, snapshotNumber(db)) + 1;
    db.meta.snapshot_id = String(this.lastSnapshot);
    const writer = new SnapshotWriter(db);
    tracker?.watch((name, id) => writer.reach(name, id));
    try {
      this.snapshotBytes = await this.snapshot.write((handle) => writer.write(handle));
    } finally {
      tracker?.watch(undefined);
    }
    await this.startLog(db.meta.snapshot_id).catch(() => undefined);
  }

  private async startLog(snapshotId: string): Promise<void> {
    const header = encodeLine({ snapshot: snapshotId });
    const tmp = temporaryOf(this.changesPath);
    try {
      const fresh = await open(tmp, 'w');
      try {
        await fresh.writeFile(header);
        await fresh.sync();
      } finally {
        await fresh.close();
      }
      await rename(tmp, this.changesPath);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    await syncDirectory(dirname(this.changesPath)).catch(() => undefined);
    this.handle = await open(this.changesPath, 'a');
    this.changesBytes = header.length;
  }

  /** True when the open change log is no longer the file at its path's name (removed). */
  private async removed(): Promise<boolean> {
    try {
      return (await (this.handle as FileHandle).stat()).nlink === 0;
    } catch {
      return true;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Stops start-up on a change log `log` (of the snapshot `path`) that does not read back. */
function damaged(log: string, path: string, what: string, detail?: string): never {
  throw new StoreFileError(
    `Change log ${log} is damaged (${what}${detail ? `: ${detail}` : ''}); ` +
      `${wayOut(`it, or it and ${basename(path)},`)}.`,
  );
}

/**
 * Which snapshot a change log continues, against the one on disk: 0 this one (apply it), below 0
 * an older one (ignore it), above 0 a newer one (the database file was replaced by an older one).
 * Ids of files from before numbered snapshots only match or do not (then ignored, as before).
 */
function compareSnapshots(continues: string, snapshotId: string | undefined): number {
  if (snapshotId === undefined || continues === snapshotId) return snapshotId === undefined ? -1 : 0;
  const [a, b] = [Number(continues), Number(snapshotId)];
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) ? Math.sign(a - b) : -1;
}

/** The snapshot's number (ids of older files that are not numbers count as 0). */
function snapshotNumber(db: Db): number {
  const n = Number(db.meta.snapshot_id);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
