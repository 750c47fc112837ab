import { DEFAULT_SANDBOX_ID } from '../../world/sandbox-id.js';
import { defaultUploadsDirOf, sandboxUploadsDirOf } from '../../world/sandbox-files.js';
import { extra, type World } from '../../world/world.js';
import { fileShelf, memoryShelf, type Shelf, type Sink, type StoredFile } from './shelf.js';

/** What `--upload-quota` counts in. */
export const MB = 1024 * 1024;

/**
 * What one request may still write: bytes set aside for it at its first file (its
 * Content-Length, when the quota has room for it all), then whatever the quota has left. Setting
 * a request's whole size aside first means parallel requests near the quota do not all take a
 * part of it and all fail: the first ones that fit get through.
 */
export class Budget {
  constructor(
    private readonly space: UploadSpace,
    private left: number,
  ) {}

  take(bytes: number): boolean {
    if (this.left < bytes) return this.space.take(bytes);
    this.left -= bytes;
    return true;
  }

  /** Gives back what the request did not use (its multipart framing, refused files). */
  release(): void {
    this.space.give(this.left);
    this.left = 0;
  }
}

/** A file being received into a sandbox's space, counted against its quota as it arrives. */
export class Part {
  /** Bytes written so far (all counted against the quota until kept or dropped). */
  bytes = 0;
  private settled = false;

  constructor(
    private readonly space: UploadSpace,
    private readonly budget: Budget,
    private readonly sink: Sink,
  ) {}

  /** Writes a chunk; false (nothing written) when it would take the sandbox over its quota. */
  async write(chunk: Buffer): Promise<boolean> {
    if (!this.budget.take(chunk.length)) return false;
    this.bytes += chunk.length;
    await this.sink.write(chunk);
    return true;
  }

  close(): Promise<void> {
    return this.sink.close();
  }

  /** Stores the bytes under `name` (call inside `space.exclusive`). */
  async keep(name: string): Promise<void> {
    await this.sink.keep(name);
    this.settled = true;
    this.space.kept(this.bytes);
  }

  /** Discards the bytes and frees their share of the quota; nothing once kept or dropped. */
  async drop(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.space.give(this.bytes);
    await this.sink.discard();
  }
}

/**
 * One sandbox's uploaded bytes and its quota (`--upload-quota`). The quota counts every byte the
 * sandbox holds: files kept, and parts still arriving (so parallel uploads cannot pass it
 * together). A reset or DELETE /__sandbox frees it; a snapshot restore does not (the files stay
 * until then).
 */
export class UploadSpace {
  private stored = 0;
  private receiving = 0;
  private measured?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly shelf: Shelf,
    readonly quotaBytes: number,
    private readonly referenced: (name: string) => boolean,
  ) {}

  usedBytes(): number {
    return this.stored + this.receiving;
  }

  /**
   * Counts what is on disk once, at first use in this process, and removes the files no record
   * names (left by a reset or --reset before that use, or by a crash between storing and recording).
   */
  ready(): Promise<void> {
    this.measured ??= this.shelf.measure(this.referenced).then(
      (bytes) => {
        this.stored = bytes;
      },
      (err: unknown) => {
        this.measured = undefined;
        throw err;
      },
    );
    return this.measured;
  }

  /** Sets `bytes` aside for one request when they fit (else nothing: it writes chunk by chunk). */
  async budget(bytes: number): Promise<Budget> {
    await this.ready();
    return new Budget(this, bytes > 0 && this.take(bytes) ? bytes : 0);
  }

  async receive(budget: Budget): Promise<Part> {
    await this.ready();
    return new Part(this, budget, await this.shelf.open());
  }

  read(name: string): Promise<StoredFile | undefined> {
    return this.shelf.read(name);
  }

  /** Runs `work` alone among keeps and clears, so a reset never removes a file whose record is being written. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Removes a kept file (call inside `exclusive`). */
  async remove(name: string): Promise<void> {
    this.stored -= await this.shelf.remove(name);
  }

  /** Removes every kept file (a reset); parts still arriving are kept and counted. */
  clear(): Promise<void> {
    return this.exclusive(async () => {
      await this.ready();
      await this.shelf.clear();
      this.stored = 0;
    });
  }

  take(bytes: number): boolean {
    if (this.usedBytes() + bytes > this.quotaBytes) return false;
    this.receiving += bytes;
    return true;
  }

  give(bytes: number): void {
    this.receiving -= bytes;
  }

  kept(bytes: number): void {
    this.receiving -= bytes;
    this.stored += bytes;
  }
}

function shelfOf(world: World): Shelf {
  if (world.store.kind !== 'file') return memoryShelf();
  const { location } = world.store;
  return fileShelf(
    world.id === DEFAULT_SANDBOX_ID ? defaultUploadsDirOf(location) : sandboxUploadsDirOf(location),
  );
}

/**
 * The world's uploads: a directory of its own beside its database file (world/sandbox-files.ts),
 * or memory for a memory store. Emptied by every reset.
 */
export function uploadSpace(world: World, quotaBytes: number): UploadSpace {
  return extra(world, 'uploads', () => {
    const space = new UploadSpace(shelfOf(world), quotaBytes, (name) =>
      Object.hasOwn(world.store.db.uploads, name),
    );
    world.onReset(() => space.clear());
    return space;
  });
}
