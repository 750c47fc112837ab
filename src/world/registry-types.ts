import type { Logger } from 'pino';
import type { Config } from '../process/config.js';
import type { ServerResponse } from 'node:http';
import type { Db } from '../store/types.js';
import type { World } from './world.js';
import type { SandboxInfo } from './sandbox-info.js';

/**
 * The worlds requests act on, by sandbox id (the world stage, stages/world.ts, uses it). The
 * default registry has one world; isolation adds more.
 */
export interface WorldRegistry {
  readonly default: World;
  /** The world of an id when it is live now (synchronously); undefined when it must be loaded. */
  live(id: string): World | undefined;
  /** Loads or creates the world of an id; may refuse (503 when the sandbox limit is reached). */
  load(id: string): Promise<World>;
  /** Counts a request acting on the world, which is in use until `res` closes (when given). */
  markUsed(world: World, res?: ServerResponse): void;
  /** Every live world (for shutdown flushes and listings). */
  all(): World[];
}

/** The world registry of a running sandbox: the default world plus named ones (`X-Sandbox-Id`). */
export interface SandboxRegistry extends WorldRegistry {
  readonly maxSandboxes: number;
  /** Idle time (wall clock) after which a named sandbox is evicted; 0 = never. */
  readonly idleMs: number;
  /** Directory of the sandbox files; null in memory. */
  readonly dir: string | null;
  /** The world of an id, loaded or created like a request would (for tests, the bench, tools). */
  open(id: string): Promise<World>;
  /** The world of an id when it holds data: live, or (file-backed) on disk; never made anew. */
  existing(id: string): Promise<World | undefined>;
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
  /**
   * The database of a new sandbox, its clock starting at the given wall time (or the pinned
   * start); default: a copy of the seed cached as JSON text per process, moved to that time.
   */
  newDb?: (wallMs: number) => Db;
}

/** Type guard: registries built by `createWorldRegistry` (an embedding may bring a plain WorldRegistry). */
export function isSandboxRegistry(worlds: WorldRegistry): worlds is SandboxRegistry {
  return typeof (worlds as Partial<SandboxRegistry>).list === 'function';
}
