import type { ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../contract/errors.js';
import { createMemoryStore } from '../store/store.js';
import type { Db } from '../store/types.js';
import { loadSeeder, seedOptionsOf } from './open.js';
import { makeWorld, type World } from './world.js';
import type { RegistryOptions, SandboxRegistry } from './registry-types.js';
import { DEFAULT_NOT_DELETABLE, DEFAULT_SANDBOX_ID, isSandboxId } from './sandbox-id.js';
import { liveInfo, storedInfo, type LiveEntry, type SandboxInfo } from './sandbox-info.js';
import {
  defaultUploadsDirOf,
  fileBytes,
  removeSandboxLeftovers,
  removeAllSandboxFiles,
  removeSandboxFile,
  sandboxDirOf,
  sandboxFileName,
  storedSandboxes,
} from './sandbox-files.js';
import { SandboxFiles } from './sandbox-store.js';

export type { RegistryOptions, SandboxRegistry } from './registry-types.js';
export { isSandboxRegistry } from './registry-types.js';

/**
 * At the cap, a sandbox idle this long (wall clock) is evicted for a new one, whatever
 * `--sandbox-idle-minutes` says: a minute without a request is a finished or paused job, and a
 * new job must not wait for the idle time (file-backed, the evicted one is kept on disk).
 */
export const MIN_IDLE_AT_CAP_MS = 60_000;

class Registry implements SandboxRegistry {
  readonly default: World;
  readonly maxSandboxes: number;
  readonly idleMs: number;
  readonly dir: string | null;
  private readonly loaded = new Map<string, LiveEntry>();
  private readonly pending = new Map<string, Promise<LiveEntry>>();
  /** Evictions and deletions in progress: the id is reopened only once they are done. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly defaultEntry: LiveEntry;
  private readonly files = new SandboxFiles();
  private readonly wall: () => number;
  private newDb?: (wallMs: number) => Db;

  constructor(private readonly options: RegistryOptions) {
    const { config } = options;
    this.default = options.defaultWorld;
    this.maxSandboxes = config.maxSandboxes;
    this.idleMs = config.sandboxIdleMinutes * 60_000;
    this.dir = config.inMemory ? null : sandboxDirOf(config.dataFile);
    this.wall = options.wallClock ?? Date.now;
    this.newDb = options.newDb;
    const now = this.wall();
    this.defaultEntry = { world: this.default, loadedAt: now, lastUsed: now, requests: 0, active: 0 };
  }

  live(id: string): World | undefined {
    return this.peek(id)?.world;
  }

  async load(id: string): Promise<World> {
    return (this.peek(id) ?? (await this.acquire(id))).world;
  }

  markUsed(world: World, res?: ServerResponse): void {
    const entry = this.peek(world.id);
    if (entry?.world !== world) return;
    entry.lastUsed = this.wall();
    entry.requests += 1;
    if (!res) return;
    entry.active += 1;
    res.once('close', () => {
      entry.active -= 1;
      entry.lastUsed = this.wall();
    });
  }

  async existing(id: string): Promise<World | undefined> {
    if (!isSandboxId(id)) return undefined;
    const live = this.peek(id) ?? (await this.pending.get(id)?.catch(() => undefined));
    if (live) return live.world;
    if (!this.dir || (await fileBytes(join(this.dir, sandboxFileName(id)))) === null) return undefined;
    return this.load(id);
  }

  async open(id: string): Promise<World> {
    if (!isSandboxId(id)) throw new Error(`not a sandbox id: ${JSON.stringify(id)}`);
    return this.load(id);
  }

  private peek(id: string): LiveEntry | undefined {
    return id === DEFAULT_SANDBOX_ID ? this.defaultEntry : this.loaded.get(id);
  }

  all(): World[] {
    return [this.default, ...[...this.loaded.values()].map((e) => e.world)];
  }

  liveIds(): string[] {
    return [...this.loaded.keys()];
  }

  async list(currentId: string): Promise<SandboxInfo[]> {
    const now = this.wall();
    const rows = [await liveInfo(this.defaultEntry, currentId, now)];
    for (const entry of this.loaded.values()) rows.push(await liveInfo(entry, currentId, now));
    if (this.dir) {
      for (const stored of await storedSandboxes(this.dir)) {
        if (!this.loaded.has(stored.id)) rows.push(storedInfo(stored, currentId, now));
      }
    }
    const [first, ...rest] = rows;
    return [first, ...rest.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))];
  }

  async remove(id: string): Promise<void> {
    if (id === DEFAULT_SANDBOX_ID) {
      throw new ApiError(400, DEFAULT_NOT_DELETABLE);
    }
    if (!isSandboxId(id)) throw new Error(`not a sandbox id: ${JSON.stringify(id)}`);
    await this.pending.get(id)?.catch(() => undefined);
    await this.closing.get(id);
    if (this.loaded.has(id)) return this.evict(id, true);
    this.files.forget(id);
    if (this.dir) await removeSandboxFile(join(this.dir, sandboxFileName(id)));
  }

  async sweep(): Promise<string[]> {
    if (this.idleMs <= 0) return [];
    const now = this.wall();
    const idle = [...this.loaded]
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
      const live = this.loaded.get(id);
      if (live) {
        // Marked used now: the caller resumes a microtask later, and a sweep must not take it meanwhile.
        live.lastUsed = this.wall();
        return live;
      }
      const pending = this.pending.get(id);
      if (pending) return pending;
      if (this.loaded.size + this.pending.size >= this.maxSandboxes) {
        // Full: the eviction takes the sandbox out of `live` at once (its flush goes on meanwhile),
        // so this request has its place before any other can take it.
        const victim = this.leastRecentlyUsedIdle();
        if (victim === undefined) throw this.fullError();
        void this.evict(victim, false);
        continue;
      }
      const creation = this.create(id).then(
        (entry) => {
          this.pending.delete(id);
          this.loaded.set(id, entry);
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
    // The seeder is loaded with the first sandbox (open.ts, loadSeeder).
    const newDb = (this.newDb ??= await loadSeeder(seedOptionsOf(this.options.config)));
    const fresh = () => newDb(this.wall());
    const store = this.dir
      ? await this.files.open(id, join(this.dir, sandboxFileName(id)), fresh, this.options.log)
      : createMemoryStore(fresh());
    const now = this.wall();
    const world = makeWorld(
      id,
      store,
      seedOptionsOf(this.options.config),
      async (wallMs) => newDb(wallMs),
      this.wall,
    );
    return { world, loadedAt: now, lastUsed: now, requests: 0, active: 0 };
  }

  /** Drops a live world; flushes it first (file-backed eviction keeps the file, deletion removes it). */
  private async evict(id: string, deleteFile: boolean): Promise<void> {
    const entry = this.loaded.get(id);
    if (!entry) return;
    this.loaded.delete(id);
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
        await store.close();
        if (store.kind === 'file') await removeSandboxFile(store.location);
      } else if (store.kind === 'file') {
        // An empty commit records the clock (the store writes it before every write).
        await store.commit(() => undefined);
        // Release the change log's file handle: an evicted world is dropped, not reused.
        await store.close();
      }
    } catch (err) {
      this.options.log?.error({ err, id: entry.world.id }, 'flushing an evicted sandbox failed');
    }
  }

  /**
   * The live sandbox to evict when the cap is reached: the least recently used of those without
   * a running request that have been idle for `MIN_IDLE_AT_CAP_MS` (the idle time is never shorter).
   */
  private leastRecentlyUsedIdle(): string | undefined {
    const now = this.wall();
    let victim: [string, LiveEntry] | undefined;
    for (const [id, entry] of this.loaded) {
      if (entry.active > 0 || now - entry.lastUsed < MIN_IDLE_AT_CAP_MS) continue;
      if (!victim || entry.lastUsed < victim[1].lastUsed) victim = [id, entry];
    }
    return victim?.[0];
  }

  /**
   * The 503 of a cap full of busy sandboxes. `Retry-After` is when the first of them can be
   * evicted: a minute after its last request ended (a running one has not ended yet: a minute
   * from now at the soonest). Sandboxes still being created count too (a minute from now).
   */
  private fullError(): ApiError {
    const now = this.wall();
    const soonest = Math.min(
      ...[...this.loaded.values()].map((e) => (e.active > 0 ? now : e.lastUsed) + MIN_IDLE_AT_CAP_MS - now),
      MIN_IDLE_AT_CAP_MS,
    );
    return new ApiError(
      503,
      `Sandbox limit reached: ${this.maxSandboxes} sandboxes are live (--max-sandboxes), none idle for a ` +
        'minute. Delete finished ones with DELETE /__sandbox, or retry after Retry-After seconds',
      this.maxSandboxes > 0 ? { 'Retry-After': String(Math.max(1, Math.ceil(soonest / 1000))) } : {},
    );
  }
}

/**
 * Builds the registry around the default world. File-backed, each named sandbox lives in
 * `<dir of --data>/sandboxes/<id>.json` (its uploads in `<id>.uploads/`); `--reset` deletes those
 * files and every sandbox's uploads, the default's too.
 * @example const worlds = await createWorldRegistry({ config, defaultWorld: world });
 */
export async function createWorldRegistry(options: RegistryOptions): Promise<SandboxRegistry> {
  const registry = new Registry(options);
  if (registry.dir && options.config.reset) {
    await removeAllSandboxFiles(registry.dir);
    await rm(defaultUploadsDirOf(options.config.dataFile), { recursive: true, force: true });
  }
  if (registry.dir) await removeSandboxLeftovers(registry.dir);
  return registry;
}
