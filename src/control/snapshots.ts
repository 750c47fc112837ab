import type { Schema } from '../contract/types.js';
import { ApiError } from '../contract/errors.js';
import type { Db } from '../store/types.js';
import { forgetIdSpace } from '../world/ids.js';
import { extra, type World } from '../world/world.js';

/** Snapshots hold whole databases in memory; a cap keeps a forgetful CI job from eating it all. */
export const MAX_SNAPSHOTS = 20;

/** A snapshot as listed (`bytes`: the size of the saved database as JSON). */
type SnapshotInfo = Schema<'SnapshotInfo'>;

/** A snapshot and the database it saved, as JSON text. */
type Snapshot = SnapshotInfo & { db: string };

/** Per world; snapshots survive a reset (reset, then restore, is a common test pattern). */
function snapshotsOf(world: World): Map<string, Snapshot> {
  return extra(world, 'snapshots', () => new Map<string, Snapshot>());
}

function info(s: Snapshot): SnapshotInfo {
  return { name: s.name, created_at: s.created_at, clock: s.clock, bytes: s.bytes };
}

/** Saves the database and the clock under a name; saving under an existing name replaces it. */
export function saveSnapshot(world: World, name: string): SnapshotInfo {
  const all = snapshotsOf(world);
  if (!all.has(name) && all.size >= MAX_SNAPSHOTS)
    throw new ApiError(409, `A sandbox keeps at most ${MAX_SNAPSHOTS} snapshots; delete one first`);
  const clock = world.clock.state();
  // The database records the clock too, so a restored file store starts at the saved time.
  const db = JSON.stringify({ ...world.store.db, meta: { ...world.store.db.meta, clock } });
  const snapshot: Snapshot = { name, created_at: clock.now, clock, bytes: Buffer.byteLength(db), db };
  all.set(name, snapshot);
  return info(snapshot);
}

export function listSnapshots(world: World): SnapshotInfo[] {
  return [...snapshotsOf(world).values()].map(info);
}

function find(world: World, name: string): Snapshot {
  const s = snapshotsOf(world).get(name);
  if (!s) throw new ApiError(404, `Snapshot not found: ${name}`);
  return s;
}

/** Puts the saved database and clock back (the snapshot stays, so it can be restored again). */
export async function restoreSnapshot(world: World, name: string): Promise<SnapshotInfo> {
  const s = find(world, name);
  // Freeze (or unfreeze) first, then set: set-then-freeze let the wall clock move the time on.
  world.clock.freeze(s.clock.frozen);
  world.clock.set(Date.parse(s.clock.now));
  const db = JSON.parse(s.db) as Db;
  forgetIdSpace(db);
  await world.store.replace(db);
  return info(s);
}

export function deleteSnapshot(world: World, name: string): void {
  find(world, name);
  snapshotsOf(world).delete(name);
}
