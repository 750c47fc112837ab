import { join } from 'node:path';
import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { WorldRegistry } from '../deps.js';
import { ApiError } from '../http/errors.js';
import { freshDb } from '../seed/seed.js';
import { StoreFileError } from '../store/file-adapter.js';
import { createFileStore, createMemoryStore, openFileStore, type Store } from '../store/store.js';
import type { Db } from '../store/types.js';
import { makeWorld, seedOptionsOf, type World } from '../world.js';
import { DEFAULT_NOT_DELETABLE, DEFAULT_SANDBOX_ID, SANDBOX_ID_HEADER, sandboxIdOf } from './sandbox-id.js';
import { liveInfo, storedInfo, type LiveEntry, type SandboxInfo } from './sandbox-info.js';
import {
  moveAside,
  removeAllSandboxFiles,
  removeSandboxFile,
  sandboxDirOf,
  sandboxFileName,
  storedSandboxes,
} from './sandbox-files.js';

/** The world registry of a running sandbox: the default world plus named ones (`X-Sandbox-Id`). */
export interface SandboxRegistry extends WorldRegistry {
  readonly maxSandboxes: number;
  /** Idle time (wall clock) after which a named sandbox is evicted; 0 = never. */
  readonly idleMs: number;
  /** Directory of the sandbox files; null in memory. */
  readonly dir: string | null;
  resolve(req: Request): Promise<World>;
  /** The world of an id, loaded or created like a request would (for tests, the bench, tools). */
  open(id: string): Promise<World>;
  /** Ids of the named sandboxes live now. */
  liveIds(): string[];
  /** The default, the live sandboxes and, file-backed, the evicted ones waiting on disk. */
  list(currentId: string): Promise<SandboxInfo[]>;
  /** Drops a named sandbox from memory and deletes its file: its next use starts from the seed. */
  remove(id: string): Promise<void>;
  /** Evicts every named sandbox idle for `idleMs` or longer; returns their ids. */
  sweep(): Promise<string[]>;
  /** Sweeps on a timer (unref'd) until the returned function is called. */
  startSweeper(): () => void;
}

export interface RegistryOptions {
  config: Config;
  defaultWorld: World;
  log?: Logger;
  /** Wall time in ms (idle eviction is wall time, not sandbox time); injectable for tests. */
  wallClock?: () => number;
  /** The database of a new sandbox; default: a copy of the seed cached as JSON text per process. */
  newDb?: () => Db;
}

/** Type guard: registries built by `createWorldRegistry` (tests may still use `singleWorld`). */
export function isSandboxRegistry(worlds: WorldRegistry): worlds is SandboxRegistry {
  return typeof (worlds as Partial<SandboxRegistry>).list === 'function';
}

class Registry implements SandboxRegistry {
  readonly default: World;
  readonly maxSandboxes: number;
  readonly idleMs: number;
  readonly dir: string | null;
  private readonly live = new Map<string, LiveEntry>();
  private readonly pending = new Map<string, Promise<LiveEntry>>();
  /** Evictions and deletions in progress: the id is reopened only once they are done. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly defaultEntry: LiveEntry;
  private readonly wall: () => number;
  private readonly newDb: () => Db;

  constructor(private readonly options: RegistryOptions) {
    const { config } = options;
    this.default = options.defaultWorld;
    this.maxSandboxes = config.maxSandboxes;
    this.idleMs = config.sandboxIdleMinutes * 60_000;
    this.dir = config.inMemory ? null : sandboxDirOf(config.dataFile);
    this.wall = options.wallClock ?? Date.now;
    const seedOptions = seedOptionsOf(config);
    this.newDb = options.newDb ?? (() => freshDb(seedOptions));
    const now = this.wall();
    this.defaultEntry = { world: this.default, loadedAt: now, lastUsed: now, requests: 0, active: 0 };
  }

  async resolve(req: Request): Promise<World> {
    let id: string;
    try {
      id = sandboxIdOf(req);
    } catch (err) {
      // Later stages (journal) may look at req.world even on an early refusal.
      req.world = this.default;
      throw err;
    }
    if (req.headers[SANDBOX_ID_HEADER.toLowerCase()] !== undefined) req.res?.setHeader(SANDBOX_ID_HEADER, id);
    const entry = await this.entryOf(id);
    entry.lastUsed = this.wall();
    entry.requests += 1;
    if (req.res) {
      entry.active += 1;
      req.res.once('close', () => {
        entry.active -= 1;
        entry.lastUsed = this.wall();
      });
    }
    return entry.world;
  }

  async open(id: string): Promise<World> {
    return (await this.entryOf(id)).world;
  }

  private async entryOf(id: string): Promise<LiveEntry> {
    if (id === DEFAULT_SANDBOX_ID) return this.defaultEntry;
    return this.live.get(id) ?? (await this.acquire(id));
  }

  all(): World[] {
    return [this.default, ...[...this.live.values()].map((e) => e.world)];
  }

  liveIds(): string[] {
    return [...this.live.keys()];
  }

  async list(currentId: string): Promise<SandboxInfo[]> {
    const now = this.wall();
    const rows = [await liveInfo(this.defaultEntry, currentId, now)];
    for (const entry of this.live.values()) rows.push(await liveInfo(entry, currentId, now));
    if (this.dir) {
      for (const stored of await storedSandboxes(this.dir)) {
        if (!this.live.has(stored.id)) rows.push(storedInfo(stored, currentId, now));
      }
    }
    const [first, ...rest] = rows;
    return [first, ...rest.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))];
  }

  async remove(id: string): Promise<void> {
    if (id === DEFAULT_SANDBOX_ID) {
      throw new ApiError(400, DEFAULT_NOT_DELETABLE);
    }
    await this.pending.get(id)?.catch(() => undefined);
    await this.closing.get(id);
    if (this.live.has(id)) return this.evict(id, true);
    if (this.dir) await removeSandboxFile(join(this.dir, sandboxFileName(id)));
  }

  async sweep(): Promise<string[]> {
    if (this.idleMs <= 0) return [];
    const now = this.wall();
    const idle = [...this.live]
      .filter(([, e]) => e.active === 0 && now - e.lastUsed >= this.idleMs)
      .map(([id]) => id);
    await Promise.all(idle.map((id) => this.evict(id, false)));
    return idle;
  }

  startSweeper(): () => void {
    if (this.idleMs <= 0) return () => undefined;
    const every = Math.min(60_000, Math.max(1000, Math.floor(this.idleMs / 4)));
    const timer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.options.log?.error({ err }, 'sandbox eviction failed'));
    }, every);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Loads or creates a named world; concurrent first requests for one id share one creation. */
  private async acquire(id: string): Promise<LiveEntry> {
    for (;;) {
      const closing = this.closing.get(id);
      if (closing) {
        await closing;
        continue;
      }
      const ready = this.live.get(id) ?? this.pending.get(id);
      if (ready) return ready;
      if (this.live.size + this.pending.size >= this.maxSandboxes) {
        // Full: make room from idle sandboxes first; the sweep awaits, so look again afterwards.
        if ((await this.sweep()).length > 0) continue;
        if (this.live.size + this.pending.size >= this.maxSandboxes && !this.live.has(id))
          throw this.fullError();
        continue;
      }
      const creation = this.create(id).then(
        (entry) => {
          this.pending.delete(id);
          this.live.set(id, entry);
          return entry;
        },
        (err: unknown) => {
          this.pending.delete(id);
          throw err;
        },
      );
      this.pending.set(id, creation);
      return creation;
    }
  }

  private async create(id: string): Promise<LiveEntry> {
    const seedOptions = seedOptionsOf(this.options.config);
    let store: Store;
    if (this.dir) {
      const file = join(this.dir, sandboxFileName(id));
      store = (await this.openStored(file)) ?? (await createFileStore(file, this.newDb()));
    } else {
      store = createMemoryStore(this.newDb());
    }
    const now = this.wall();
    return { world: makeWorld(id, store, seedOptions), loadedAt: now, lastUsed: now, requests: 0, active: 0 };
  }

  /** A sandbox file from an earlier run; an unreadable one is moved aside and the sandbox starts anew. */
  private async openStored(file: string): Promise<Store | null> {
    try {
      return await openFileStore(file);
    } catch (err) {
      if (!(err instanceof StoreFileError)) throw err;
      const aside = await moveAside(file, this.wall());
      this.options.log?.warn({ err, aside }, 'unreadable sandbox file moved aside; starting from the seed');
      return null;
    }
  }

  /** Drops a live world; flushes it first (file-backed eviction keeps the file, deletion removes it). */
  private async evict(id: string, deleteFile: boolean): Promise<void> {
    const entry = this.live.get(id);
    if (!entry) return;
    this.live.delete(id);
    // Until the flush is done the id is "closing": a new request for it waits, then reopens the file.
    const done: Promise<void> = this.flushEvicted(entry, deleteFile).then(() => {
      if (this.closing.get(id) === done) this.closing.delete(id);
    });
    this.closing.set(id, done);
    await done;
  }

  /** Never rejects: a failed flush is logged, and the id must stay usable. */
  private async flushEvicted(entry: LiveEntry, deleteFile: boolean): Promise<void> {
    const { store } = entry.world;
    try {
      if (deleteFile) {
        await store.flush();
        if (store.kind === 'file') await removeSandboxFile(store.location);
      } else if (store.kind === 'file') {
        // An empty commit records the clock (the store writes it before every write).
        await store.commit(() => undefined);
      }
    } catch (err) {
      this.options.log?.error({ err, id: entry.world.id }, 'flushing an evicted sandbox failed');
    }
  }

  private fullError(): ApiError {
    const headers: Record<string, string> = {};
    if (this.idleMs > 0 && this.live.size > 0) {
      const now = this.wall();
      const soonest = Math.min(...[...this.live.values()].map((e) => e.lastUsed + this.idleMs - now));
      headers['Retry-After'] = String(Math.max(1, Math.ceil(soonest / 1000)));
    }
    return new ApiError(
      503,
      `Sandbox limit reached: ${this.maxSandboxes} sandboxes are live (--max-sandboxes). ` +
        'Delete finished ones with DELETE /__sandbox, or retry once idle ones are evicted',
      headers,
    );
  }
}

/**
 * Builds the registry around the default world. File-backed, each named sandbox lives in
 * `<dir of --data>/sandboxes/<id>.json`; `--reset` deletes those files too.
 * @example const worlds = await createWorldRegistry({ config, defaultWorld: world });
 */
export async function createWorldRegistry(options: RegistryOptions): Promise<SandboxRegistry> {
  const registry = new Registry(options);
  if (registry.dir && options.config.reset) await removeAllSandboxFiles(registry.dir);
  return registry;
}
