import { describe, expect, it, vi } from 'vitest';
import { selectWorld } from '../../src/stages/world.js';
import { expectError, makeSandbox } from '../helpers/sandbox.js';

const MINUTE = 60_000;

/** A wall clock the test moves by hand (idle eviction reads wall time, not sandbox time). */
function wallClock(start = Date.parse('2026-11-22T10:00:00.000Z')) {
  let now = start;
  return { now: () => now, pass: (ms: number) => void (now += ms) };
}

const register = (sb: Awaited<ReturnType<typeof makeSandbox>>, id: string, email = 'x@example.com') =>
  sb.http.post('/api/auth/register').set('X-Sandbox-Id', id).send({ email, password: 'password-1' });

describe('sandbox ids', () => {
  it('refuses a malformed X-Sandbox-Id with 400 on any path, before anything else', async () => {
    const sb = await makeSandbox();
    for (const bad of ['', 'has space', 'slash/y', 'dot.y', 'ünï', 'x'.repeat(65), 'a,b']) {
      const res = await sb.http.get('/__sandbox/health').set('X-Sandbox-Id', bad);
      expectError(res, 400, /^header X-Sandbox-Id must be 1-64 characters of A-Z, a-z, 0-9, _ and -; got /);
    }
    expectError(await sb.http.get('/nope').set('X-Sandbox-Id', 'a b'), 400, /X-Sandbox-Id/);
    expectError(
      await sb.http.post('/api/auth/login').set('X-Sandbox-Id', '').send({ email: 'a', password: 'b' }),
      400,
      /got ""/,
    );
    expect(sb.worlds.liveIds()).toEqual([]);
    await expect(sb.worlds.open('../escape')).rejects.toThrow(/not a sandbox id/);
    await expect(sb.worlds.remove('a/b')).rejects.toThrow(/not a sandbox id/);
  });

  it('accepts 1 to 64 characters of A-Z a-z 0-9 _ - and echoes the id', async () => {
    const sb = await makeSandbox();
    for (const good of ['a', 'Z', '0', '_', '-', 'x'.repeat(64), '123456789-build_linux']) {
      const res = await sb.http.get('/__sandbox/health').set('X-Sandbox-Id', good);
      expect(res.status).toBe(200);
      expect(res.headers['x-sandbox-id']).toBe(good);
    }
    expect((await sb.http.get('/__sandbox/health')).headers['x-sandbox-id']).toBeUndefined();
  });

  it('treats X-Sandbox-Id: default as the default sandbox', async () => {
    const sb = await makeSandbox();
    expect((await register(sb, 'default')).status).toBe(201);
    expect(Object.values(sb.world.store.db.users).some((u) => u.email === 'x@example.com')).toBe(true);
    expect(sb.worlds.liveIds()).toEqual([]);
  });
});

describe('listing sandboxes', () => {
  it('lists the default and the named sandboxes with records, requests, last use and clock', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({}, { wallClock: wall.now });
    const empty = await sb.http.get('/__sandbox/sandboxes');
    expect(empty.body).toMatchObject({ max_sandboxes: 100, idle_minutes: 30, live: 0 });
    expect(empty.body.sandboxes.map((s: { id: string }) => s.id)).toEqual(['default']);

    await register(sb, 'b');
    wall.pass(5 * MINUTE);
    await register(sb, 'a');
    const res = await sb.http.get('/__sandbox/sandboxes').set('X-Sandbox-Id', 'a');
    expect(res.status).toBe(200);
    expect(res.body.live).toBe(2);
    const [d, a, b] = res.body.sandboxes;
    expect([d.id, a.id, b.id]).toEqual(['default', 'a', 'b']);
    expect(d).toMatchObject({ default: true, current: false, live: true, store: 'memory', bytes: null });
    expect(a).toMatchObject({ default: false, current: true, live: true, requests: 2, idle_seconds: 0 });
    expect(b).toMatchObject({ current: false, requests: 1, idle_seconds: 300 });
    expect(b.last_used_at).toBe('2026-11-22T10:00:00.000Z');
    expect(a.records).toBe(d.records + 1);
    expect(a.clock).toEqual({ now: expect.any(String), frozen: false });
  });
});

describe('deleting a sandbox', () => {
  it('deletes the caller’s sandbox: its next use starts again from the seed', async () => {
    const sb = await makeSandbox();
    expect((await register(sb, 'gone')).status).toBe(201);
    const res = await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'gone');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: 'gone' });
    expect(sb.worlds.liveIds()).toEqual([]);
    expect((await register(sb, 'gone')).status).toBe(201);
  });

  it('answers 200 for a sandbox that was never used, and 400 for the default', async () => {
    const sb = await makeSandbox();
    expect((await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'never')).status).toBe(200);
    expect(sb.worlds.liveIds()).toEqual([]);
    expectError(await sb.http.delete('/__sandbox'), 400, /default sandbox cannot be deleted/);
    expectError(
      await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'default'),
      400,
      /POST \/__sandbox\/reset/,
    );
  });
});

describe('the cap and idle eviction', () => {
  it('refuses a new id with 503 when --max-sandboxes are live and none is idle for a minute, and serves known ids and the default', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ maxSandboxes: 2 }, { wallClock: wall.now });
    await register(sb, 'one');
    await register(sb, 'two');
    wall.pass(MINUTE / 2);
    const full = await register(sb, 'three');
    expectError(full, 503, /^Sandbox limit reached: 2 sandboxes are live \(--max-sandboxes\)/);
    expect(full.headers['retry-after']).toBe('30');
    expect((await register(sb, 'one', 'y@example.com')).status).toBe(201);
    expect((await sb.http.get('/__sandbox/health')).status).toBe(200);

    await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'two');
    expect((await register(sb, 'three')).status).toBe(201);
  });

  it('makes room by evicting idle sandboxes when a new one is asked for', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ maxSandboxes: 1, sandboxIdleMinutes: 30 }, { wallClock: wall.now });
    await register(sb, 'old');
    wall.pass(30 * MINUTE);
    expect((await register(sb, 'new')).status).toBe(201);
    expect(sb.worlds.liveIds()).toEqual(['new']);
  });

  it('evicts sandboxes idle for the idle time (wall clock), and an evicted in-memory one restarts from the seed', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ sandboxIdleMinutes: 30 }, { wallClock: wall.now });
    await register(sb, 'idle');
    wall.pass(20 * MINUTE);
    await register(sb, 'busy');
    wall.pass(10 * MINUTE - 1);
    expect(await sb.worlds.sweep()).toEqual([]);
    wall.pass(1);
    expect(await sb.worlds.sweep()).toEqual(['idle']);
    expect(sb.worlds.liveIds()).toEqual(['busy']);
    expect((await register(sb, 'idle')).status).toBe(201);
    expect(sb.world.id).toBe('default');
  });

  it('never evicts the default sandbox, nor with --sandbox-idle-minutes 0', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ sandboxIdleMinutes: 0 }, { wallClock: wall.now });
    await register(sb, 'kept');
    wall.pass(365 * 24 * 60 * MINUTE);
    expect(await sb.worlds.sweep()).toEqual([]);
    expect(sb.worlds.liveIds()).toEqual(['kept']);
    expect(sb.worlds.all().map((w) => w.id)).toEqual(['default', 'kept']);
  });

  it('does not evict a sandbox while one of its requests is running', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ sandboxIdleMinutes: 1 }, { wallClock: wall.now });
    const { EventEmitter } = await import('node:events');
    const res = Object.assign(new EventEmitter(), { setHeader: () => undefined });
    const req = { headers: { 'x-sandbox-id': 'slow' } } as never;
    const world = await selectWorld(sb.worlds, req, res as never);
    expect(world?.id).toBe('slow');
    wall.pass(5 * MINUTE);
    expect(await sb.worlds.sweep()).toEqual([]);
    res.emit('close');
    wall.pass(MINUTE);
    expect(await sb.worlds.sweep()).toEqual(['slow']);
  });

  it('sweeps on a timer', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ sandboxIdleMinutes: 1 }, { wallClock: wall.now });
    await register(sb, 'timed');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stop = sb.worlds.startSweeper();
      wall.pass(2 * MINUTE);
      await vi.advanceTimersByTimeAsync(MINUTE);
      expect(sb.worlds.liveIds()).toEqual([]);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
