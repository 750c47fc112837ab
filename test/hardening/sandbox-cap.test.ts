import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Issue 14, Resources: "At the sandbox cap, a new CI job gets a 503 for up to 28 minutes". At the
// cap, the least recently used sandbox idle for a minute makes room (file-backed, it is persisted
// first, as idle eviction does); a 503 is only for a cap full of busy sandboxes, and its
// Retry-After says when one will be free.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The wall clock idle eviction reads, moved by hand (sandbox time plays no part). */
function wallClock() {
  let now = Date.parse('2026-11-22T10:00:00.000Z');
  return { now: () => now, pass: (ms: number) => void (now += ms) };
}

const register = (sb: TestSandbox, id: string, email = 'ci@example.com') =>
  sb.http.post('/api/auth/register').set('X-Sandbox-Id', id).send({ email, password: 'password-1' });
const login = (sb: TestSandbox, id: string, email = 'ci@example.com') =>
  sb.http.post('/api/auth/login').set('X-Sandbox-Id', id).send({ email, password: 'password-1' });

describe('the sandbox cap', () => {
  it('evicts the least recently used sandbox idle for a minute to make room for a new id', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ maxSandboxes: 3, sandboxIdleMinutes: 30 }, { wallClock: wall.now });
    await register(sb, 'oldest');
    wall.pass(5 * SECOND);
    await register(sb, 'older');
    wall.pass(5 * SECOND);
    await register(sb, 'recent');
    wall.pass(MINUTE);
    // 'recent' was used 60 s ago, 'older' 65 s ago, 'oldest' 70 s ago: 'oldest' goes first.
    expect((await register(sb, 'new-1')).status).toBe(201);
    expect(sb.worlds.liveIds().sort()).toEqual(['new-1', 'older', 'recent']);
    expect((await register(sb, 'new-2')).status).toBe(201);
    expect(sb.worlds.liveIds().sort()).toEqual(['new-1', 'new-2', 'recent']);
  });

  it('persists a file-backed sandbox it evicts: its data is there on its next use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbx-cap-'));
    dirs.push(dir);
    const wall = wallClock();
    const sb = await makeSandbox(
      { maxSandboxes: 1, inMemory: false, dataFile: join(dir, 'db.json') },
      { wallClock: wall.now },
    );
    expect((await register(sb, 'first')).status).toBe(201);
    wall.pass(MINUTE);
    expect((await register(sb, 'second')).status).toBe(201);
    expect(sb.worlds.liveIds()).toEqual(['second']);
    wall.pass(MINUTE);
    expect((await login(sb, 'first')).status).toBe(200);
    expect(sb.worlds.liveIds()).toEqual(['first']);
  });

  it('answers 503 only when every live sandbox was used in the last minute, with Retry-After when the first one will be free', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ maxSandboxes: 2, sandboxIdleMinutes: 30 }, { wallClock: wall.now });
    await register(sb, 'a');
    wall.pass(15 * SECOND);
    await register(sb, 'b');
    wall.pass(20 * SECOND);
    const full = await register(sb, 'c');
    expectError(
      full,
      503,
      /^Sandbox limit reached: 2 sandboxes are live \(--max-sandboxes\), none idle for a minute/,
    );
    expect(full.headers['retry-after']).toBe('25');
    wall.pass(25 * SECOND);
    expect((await register(sb, 'c')).status).toBe(201);
    expect(sb.worlds.liveIds().sort()).toEqual(['b', 'c']);
  });

  it('never evicts a sandbox while one of its requests runs, however long ago it started', async () => {
    const wall = wallClock();
    const sb = await makeSandbox({ maxSandboxes: 2 }, { wallClock: wall.now });
    // A request that takes 3 s of real time in 'busy', started first (so least recently used).
    const running = sb.http
      .get('/api/shop/categories')
      .set('X-Sandbox-Id', 'busy')
      .set('X-Sandbox-Scenario', 'latency=3000')
      .then((res) => res);
    while (!sb.worlds.liveIds().includes('busy')) await new Promise((resolve) => setTimeout(resolve, 10));
    await register(sb, 'idle');
    wall.pass(5 * MINUTE);
    expect((await register(sb, 'new')).status).toBe(201);
    expect(sb.worlds.liveIds().sort()).toEqual(['busy', 'new']);
    // Now both are busy or fresh: a third id waits for the running one, a minute after it ends at the soonest.
    const full = await register(sb, 'third');
    expectError(full, 503, /none idle for a minute/);
    expect(Number(full.headers['retry-after'])).toBe(60);
    expect((await running).status).toBe(200);
  });
});
