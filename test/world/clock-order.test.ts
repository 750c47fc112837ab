import { describe, expect, it } from 'vitest';
import { restoreSnapshot, saveSnapshot } from '../../src/control/snapshots.js';
import { applyOverlay } from '../../src/scenarios/overlay.js';
import { createMemoryStore } from '../../src/store/store.js';
import { loadSeeder } from '../../src/world/open.js';
import { makeWorld, type World } from '../../src/world/world.js';

/**
 * Setting a frozen time must stop the clock exactly there, however the wall clock moves meanwhile:
 * a restore and an overlay that set the time and then froze it let a millisecond of wall time in
 * (a CI run restored a snapshot frozen at .000Z as .001Z). The wall clock here moves 1 ms at every
 * read, so an order that reads it between the set and the freeze shows at once.
 */
async function worldOnTickingWall(): Promise<World> {
  const options = { seed: 1, listings: 10, clockStart: '2026-01-01T00:00:00.000Z' };
  const seed = await loadSeeder(options);
  let wall = 1_000_000;
  const tick = () => ++wall;
  return makeWorld('t', createMemoryStore(seed(wall)), options, async (ms) => seed(ms), tick);
}

describe('a frozen time set by', () => {
  it('a snapshot restore is the saved time, to the millisecond', async () => {
    const world = await worldOnTickingWall();
    world.clock.freeze(true);
    world.clock.set(Date.parse('2026-03-01T00:00:00.000Z'));
    saveSnapshot(world, 'before');
    world.clock.freeze(false);
    world.clock.advance(3 * 86_400_000);
    await restoreSnapshot(world, 'before');
    expect(world.clock.state()).toEqual({ now: '2026-03-01T00:00:00.000Z', frozen: true });
  });

  it('a running snapshot restores running, from its saved time', async () => {
    const world = await worldOnTickingWall();
    world.clock.set(Date.parse('2026-03-01T00:00:00.000Z'));
    const saved = saveSnapshot(world, 'running');
    world.clock.freeze(true);
    world.clock.advance(3 * 86_400_000);
    await restoreSnapshot(world, 'running');
    expect(world.clock.isFrozen()).toBe(false);
    // The ticking wall moves on with every read: the restored clock runs on from the saved time.
    const since = world.clock.now() - Date.parse(saved.clock.now);
    expect(since).toBeGreaterThan(0);
    expect(since).toBeLessThan(1000);
  });

  it("a scenario overlay's clock is that time, moved by its advance", async () => {
    const world = await worldOnTickingWall();
    applyOverlay(world, { clock: { set: '2026-05-01T12:00:00.000Z', freeze: true } });
    expect(world.clock.state()).toEqual({ now: '2026-05-01T12:00:00.000Z', frozen: true });
    applyOverlay(world, { clock: { advance: '1d', freeze: true } });
    expect(world.clock.state()).toEqual({ now: '2026-05-02T12:00:00.000Z', frozen: true });
  });
});
