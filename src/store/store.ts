import { Low, Memory } from 'lowdb';
import { DirtyTracker } from './dirty-tracker.js';
import { ChangeLogFile } from './change-log.js';
import { ApiError } from '../contract/errors.js';
import { withBareCollections, type Db } from './types.js';

/**
 * One world's data. Reads go straight to `db`; every change goes through `mutate`, a synchronous
 * function, so no request can observe a half-applied change, and one that throws half-way is
 * taken back whole (undo-log.ts), so none is ever left either. Persistence is coalesced (group
 * commit): `commit` applies the change at once and resolves when a flush that includes it is on
 * disk; many concurrent writes share one flush. A flush that fails takes back every change not yet
 * on disk and rejects its commits (503), so a client told of a failure never sees its change. A
 * file store logs only the records a change wrote (dirty-tracker.ts, change-log.ts): inside
 * `mutate`, reach records through the `db` argument or `store.db`, never through a record object
 * kept from before the mutation, or the write is neither logged nor undone.
 */
export interface Store {
  readonly db: Db;
  /** Bumped by every mutation; caches key on it. */
  readonly version: number;
  readonly kind: 'file' | 'memory';
  /** File path, or `memory`. */
  readonly location: string;
  mutate<T>(change: (db: Db) => T): T;
  /** mutate, then wait until the change is durable. */
  commit<T>(change: (db: Db) => T): Promise<T>;
  /** Resolves once every change made so far is durable. */
  flush(): Promise<void>;
  /** Swap in a whole new database (reset, snapshot restore) and persist it. */
  replace(db: Db): Promise<void>;
  /** Called with the database just before each write (e.g. to record the clock). */
  onBeforeWrite(hook: (db: Db) => void): void;
  /**
   * Flushes (a long change log folded into a new snapshot), then releases the file handle (the
   * change log); a later write reopens the file.
   */
  close(): Promise<void>;
}

interface Waiter {
  generation: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** A flush that failed: the client is told, and the change was taken back (it never happened). */
function notSaved(location: string, err: Error): ApiError {
  const why = (err as NodeJS.ErrnoException).code ?? err.message;
  return new ApiError(503, `The change could not be saved to ${location} (${why}); it was not applied`);
}

class LowStore implements Store {
  private generation = 0;
  private durable = 0;
  private writing = false;
  private waiters: Waiter[] = [];
  private hooks: ((db: Db) => void)[] = [];
  private mutating = 0;
  private readonly tracker: DirtyTracker<Db>;

  constructor(
    private readonly low: Low<Db>,
    readonly kind: 'file' | 'memory',
    readonly location: string,
    private readonly file?: ChangeLogFile,
  ) {
    withBareCollections(low.data);
    this.tracker = new DirtyTracker(low.data, file !== undefined);
  }

  /** Inside a mutation, the tracking view (so changes made through `store.db` are seen too). */
  get db(): Db {
    return this.mutating > 0 ? this.tracker.view() : this.low.data;
  }

  get version(): number {
    return this.generation;
  }

  /** All or nothing: a change that throws half-way is taken back before the error goes on. */
  mutate<T>(change: (db: Db) => T): T {
    const start = this.tracker.undo.position;
    this.mutating += 1;
    let result: T;
    try {
      result = change(this.db);
    } catch (err) {
      this.tracker.undo.rollback(start);
      throw err;
    } finally {
      this.mutating -= 1;
      if (this.mutating === 0) this.tracker.endChange();
    }
    this.generation += 1;
    // A memory store cannot fail to write: its changes never need taking back once made.
    if (!this.file && this.mutating === 0) this.tracker.undo.forget(this.tracker.undo.position);
    return result;
  }

  async commit<T>(change: (db: Db) => T): Promise<T> {
    const result = this.mutate(change);
    await this.flush();
    return result;
  }

  flush(): Promise<void> {
    const target = this.generation;
    if (this.durable >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ generation: target, resolve, reject });
      if (!this.writing) void this.writeLoop();
    });
  }

  async replace(db: Db): Promise<void> {
    const before = this.low.data;
    if (this.file)
      this.tracker.undo.keepStep(() => {
        this.low.data = before;
        this.tracker.reset(before);
      });
    this.low.data = withBareCollections(db);
    this.tracker.reset(db);
    this.generation += 1;
    await this.flush();
  }

  onBeforeWrite(hook: (db: Db) => void): void {
    this.hooks.push(hook);
  }

  async close(): Promise<void> {
    await this.flush();
    // A long change log is folded into a new snapshot through the write loop (never beside a
    // flush), so the next start reads one file; if that write fails, what was durable stays so.
    if (this.file?.worthFolding()) {
      this.file.foldNext();
      this.generation += 1;
      await this.flush().catch(() => undefined);
    }
    await this.file?.close();
  }

  /** Writes until everything mutated is durable; each pass serves every waiter it covers. */
  private async writeLoop(): Promise<void> {
    this.writing = true;
    try {
      while (this.durable < this.generation) {
        const generation = this.generation;
        let covered: number;
        try {
          covered = await this.write();
        } catch (err) {
          this.takeBackUndurable();
          this.settle(this.generation, notSaved(this.location, err as Error));
          continue;
        }
        this.tracker.undo.forget(covered);
        this.durable = generation;
        this.settle(generation);
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * One flush: hooks, then a change log entry of the changed records (or a snapshot), or lowdb.
   * Returns the undo log position it covers: what was written before it is durable once it resolves.
   */
  private async write(): Promise<number> {
    this.mutating += 1;
    try {
      for (const hook of this.hooks) hook(this.tracker.view());
    } finally {
      this.mutating -= 1;
    }
    const covered = this.tracker.undo.position;
    if (!this.file) await this.low.write();
    else await this.file.flush(this.low.data, this.tracker.take(), this.tracker);
    return covered;
  }

  /**
   * A flush failed: every change not yet durable (the failed flush's and any made since, which may
   * build on them) is taken back, so memory holds what the files hold, and the next flush writes
   * a whole snapshot. Every waiting commit is rejected; the version moves on so caches refill.
   */
  private takeBackUndurable(): void {
    this.tracker.undo.rollback(0);
    this.tracker.take();
    this.tracker.invalidate();
    this.generation += 1;
    this.durable = this.generation;
  }

  private settle(generation: number, err?: Error): void {
    const done = this.waiters.filter((w) => w.generation <= generation);
    this.waiters = this.waiters.filter((w) => w.generation > generation);
    for (const w of done) {
      if (err) w.reject(err);
      else w.resolve();
    }
  }
}

/** A store that lives only in memory: commits resolve at once. */
export function createMemoryStore(db: Db): Store {
  const low = new Low<Db>(new Memory<Db>(), db);
  return new LowStore(low, 'memory', 'memory');
}

/** Opens the file (snapshot + change log) if it exists; null when there is no file yet (the caller seeds). */
export async function openFileStore(path: string): Promise<Store | null> {
  const file = new ChangeLogFile(path);
  const data = await file.read();
  if (data === null) return null;
  return new LowStore(new Low<Db>(new Memory<Db>(), data), 'file', path, file);
}

/** Creates the file from `db` (written and fsynced before this resolves). */
export async function createFileStore(path: string, db: Db): Promise<Store> {
  const file = new ChangeLogFile(path);
  await file.discardChangeLog();
  const store = new LowStore(new Low<Db>(new Memory<Db>(), db), 'file', path, file);
  await store.replace(db);
  return store;
}

/** What a file store holds on disk (snapshot + change log), for tools and tests. */
export async function readFileStore(path: string): Promise<Db | null> {
  return new ChangeLogFile(path).read();
}
