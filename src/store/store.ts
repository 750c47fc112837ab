import { Low, Memory } from 'lowdb';
import { DirtyTracker } from './dirty-tracker.js';
import { ChangeLogFile } from './change-log.js';
import { withBareCollections, type Db } from './types.js';

/**
 * One world's data. Reads go straight to `db`; every change goes through `mutate`, a synchronous
 * function, so no request can observe or leave a half-applied change. Persistence is coalesced
 * (group commit): `commit` applies the change at once and resolves when a flush that includes it
 * is on disk; many concurrent writes share one flush. A file store logs only the top-level
 * collections a change reached (change-log.ts): inside `mutate`, reach records through the `db`
 * argument or `store.db`, never through a record object kept from before the mutation.
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
  /** Flushes, then releases the file handle (the change log); a later write reopens the file. */
  close(): Promise<void>;
}

interface Waiter {
  generation: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

class LowStore implements Store {
  private generation = 0;
  private durable = 0;
  private writing = false;
  private waiters: Waiter[] = [];
  private hooks: ((db: Db) => void)[] = [];
  private mutating = 0;
  private readonly tracker?: DirtyTracker<Db>;

  constructor(
    private readonly low: Low<Db>,
    readonly kind: 'file' | 'memory',
    readonly location: string,
    private readonly file?: ChangeLogFile,
  ) {
    withBareCollections(low.data);
    if (file) this.tracker = new DirtyTracker(low.data);
  }

  /** Inside a mutation, the tracking view (so changes made through `store.db` are seen too). */
  get db(): Db {
    return this.mutating > 0 && this.tracker ? this.tracker.view() : this.low.data;
  }

  get version(): number {
    return this.generation;
  }

  mutate<T>(change: (db: Db) => T): T {
    this.mutating += 1;
    try {
      const result = change(this.db);
      this.generation += 1;
      return result;
    } finally {
      this.mutating -= 1;
    }
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
    this.low.data = withBareCollections(db);
    this.tracker?.reset(db);
    this.generation += 1;
    await this.flush();
  }

  onBeforeWrite(hook: (db: Db) => void): void {
    this.hooks.push(hook);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.file?.close();
  }

  /** Writes until everything mutated is durable; each pass serves every waiter it covers. */
  private async writeLoop(): Promise<void> {
    this.writing = true;
    try {
      while (this.durable < this.generation) {
        const generation = this.generation;
        try {
          await this.write();
        } catch (err) {
          this.tracker?.invalidate();
          this.settle(generation, err as Error);
          continue;
        }
        this.durable = generation;
        this.settle(generation);
      }
    } finally {
      this.writing = false;
    }
  }

  /** One flush: hooks, then a change log entry of the changed collections (or a snapshot), or lowdb. */
  private async write(): Promise<void> {
    if (!this.file || !this.tracker) {
      for (const hook of this.hooks) hook(this.low.data);
      await this.low.write();
      return;
    }
    this.mutating += 1;
    try {
      for (const hook of this.hooks) hook(this.tracker.view());
    } finally {
      this.mutating -= 1;
    }
    const changes = this.tracker.take();
    if (changes.all || this.file.shouldCompact()) await this.file.compact(this.low.data, this.tracker);
    else await this.file.append(this.low.data, changes);
  }

  private settle(generation: number, err?: Error): void {
    const done = this.waiters.filter((w) => w.generation <= generation);
    this.waiters = this.waiters.filter((w) => w.generation > generation);
    for (const w of done) {
      if (err) w.reject(err);
      else w.resolve();
    }
    // A failed write gives up on the generations it covered; later writes try again.
    if (err) this.durable = Math.max(this.durable, generation);
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
