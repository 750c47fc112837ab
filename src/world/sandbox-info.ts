import type { components } from '../generated/api.js';
import type { Db } from '../store/types.js';
import type { World } from './world.js';
import { DEFAULT_SANDBOX_ID } from './sandbox-id.js';
import { fileBytes, type StoredSandbox } from './sandbox-files.js';

/** One row of `GET /__sandbox/sandboxes` (openapi.yaml `SandboxInfo`). */
export type SandboxInfo = components['schemas']['SandboxInfo'];

/** The bookkeeping the registry keeps for each live world. */
export interface LiveEntry {
  world: World;
  loadedAt: number;
  lastUsed: number;
  requests: number;
  /** Requests still running on it: a world is never evicted under a running request. */
  active: number;
}

/** Counts records across every collection (cheap: no serialisation). */
export function recordCount(db: Db): number {
  let total = 0;
  for (const [name, value] of Object.entries(db)) {
    if (name === 'meta' || value === null || typeof value !== 'object') continue;
    total += Array.isArray(value) ? value.length : Object.keys(value).length;
  }
  return total;
}

const iso = (ms: number) => new Date(ms).toISOString();
const idleSeconds = (now: number, last: number) => Math.max(0, Math.floor((now - last) / 1000));

/** Describes a live world. */
export async function liveInfo(entry: LiveEntry, currentId: string, now: number): Promise<SandboxInfo> {
  const { world } = entry;
  return {
    id: world.id,
    default: world.id === DEFAULT_SANDBOX_ID,
    current: world.id === currentId,
    live: true,
    store: world.store.kind,
    records: recordCount(world.store.db),
    bytes: world.store.kind === 'file' ? await fileBytes(world.store.location) : null,
    requests: entry.requests,
    loaded_at: iso(entry.loadedAt),
    last_used_at: iso(entry.lastUsed),
    idle_seconds: idleSeconds(now, entry.lastUsed),
    clock: world.clock.state(),
  };
}

/** Describes a file-backed sandbox that is on disk but not loaded (its last use is the file's time). */
export function storedInfo(stored: StoredSandbox, currentId: string, now: number): SandboxInfo {
  return {
    id: stored.id,
    default: false,
    current: stored.id === currentId,
    live: false,
    store: 'file',
    records: null,
    bytes: stored.bytes,
    requests: 0,
    loaded_at: null,
    last_used_at: iso(stored.modifiedMs),
    idle_seconds: idleSeconds(now, stored.modifiedMs),
    clock: null,
  };
}
