import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { openDefaultWorld } from '../../src/world/open.js';
import { continuedClock } from '../../src/world/world.js';
import { accounts, makeSandbox } from '../helpers/sandbox.js';

/** The claims of a JWT, read as a client library would: no signature check, just the payload. */
const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { iat: number; exp: number };

/** Sandbox time as GET /__sandbox/clock shows it, in ms. */
async function clockOf(sb: Awaited<ReturnType<typeof makeSandbox>>): Promise<number> {
  return Date.parse((await sb.http.get('/__sandbox/clock')).body.now as string);
}

describe('a fresh sandbox starts at the wall time', () => {
  it('runs its clock from now (whole seconds), so a JWT exp is 24 hours ahead by the client clock', async () => {
    const before = Date.now();
    const sb = await makeSandbox();
    const now = await clockOf(sb);
    expect(now).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(now).toBeLessThanOrEqual(Date.now());
    const login = await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    const { iat, exp } = claims(login.body.token as string);
    expect(exp - iat).toBe(24 * 3600);
    expect(exp * 1000).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it('seeds every listing a search shows with an expires_at in the future and a created_at in the past', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/shop/listings?limit=50&sort=ending_soon');
    expect(res.body.listings.length).toBeGreaterThan(0);
    const wall = Date.now();
    for (const listing of res.body.listings as { expires_at: string; created_at: string }[]) {
      expect(Date.parse(listing.expires_at), listing.expires_at).toBeGreaterThan(wall);
      expect(Date.parse(listing.created_at), listing.created_at).toBeLessThanOrEqual(wall);
    }
  });

  it('starts again at the wall time on a reset, unfrozen, wherever the clock was', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ set: '2031-01-01T00:00:00.000Z', freeze: true });
    const before = Date.now();
    await sb.http.post('/__sandbox/reset');
    const clock = (await sb.http.get('/__sandbox/clock')).body;
    expect(clock.frozen).toBe(false);
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(Date.now());
  });

  it('starts a new X-Sandbox-Id at the wall time too', async () => {
    const sb = await makeSandbox();
    const before = Date.now();
    const clock = (await sb.http.get('/__sandbox/clock').set('X-Sandbox-Id', 'fresh-one')).body;
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(Date.now());
  });
});

describe('--clock-start pins the start', () => {
  it('starts the clock, the reset and the seeded times at the pinned instant', async () => {
    const sb = await makeSandbox({ clockStart: '2026-03-01T00:00:00.000Z' });
    const start = Date.parse('2026-03-01T00:00:00.000Z');
    expect((await clockOf(sb)) - start).toBeLessThan(5_000);
    const page = (await sb.http.get('/api/shop/listings?limit=50')).body.listings as { created_at: string }[];
    const newest = Math.max(...page.map((l) => Date.parse(l.created_at)));
    expect(newest).toBeLessThanOrEqual(start);
    expect(newest).toBeGreaterThan(start - 7 * 86_400_000);
    await sb.http.post('/__sandbox/clock').send({ advance: '30d' });
    await sb.http.post('/__sandbox/reset');
    expect((await clockOf(sb)) - start).toBeLessThan(5_000);
  });
});

describe('a restart goes on from the stored clock', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the data and the distance of sandbox time to the wall clock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-clock-'));
    const config = makeConfig({ inMemory: false, dataFile: join(dir, 'db.json'), listings: 20 });
    const first = await openDefaultWorld(config);
    expect(first.seeded).toBe(true);
    const seededAt = first.world.store.db.meta.seeded_at;
    first.world.clock.advance(5 * 3600_000);
    // A write records the clock (and the wall time it was read at) with the data.
    await first.world.store.commit((db) => {
      const listing = Object.values(db.listings)[0];
      listing.quantity_available += 1;
    });
    await first.world.store.close();
    const again = await openDefaultWorld(config);
    expect(again.seeded).toBe(false);
    expect(again.world.store.db.meta.seeded_at).toBe(seededAt);
    const ahead = again.world.clock.now() - Date.now();
    expect(ahead).toBeGreaterThan(5 * 3600_000 - 5_000);
    expect(ahead).toBeLessThan(5 * 3600_000 + 5_000);
    await again.world.store.close();
  });

  it('adds the wall time the sandbox was down to a running clock, and none to a frozen one', () => {
    const meta = {
      schema: 1 as const,
      seed: 1,
      listings: 0,
      next_id: 0,
      clock: { now: '2026-03-01T00:00:00.000Z', frozen: false },
      clock_recorded_at: '2026-05-01T00:00:00.000Z',
    };
    const wall = Date.parse('2026-05-01T02:00:00.000Z');
    expect(continuedClock(meta, wall)).toEqual({ now: '2026-03-01T02:00:00.000Z', frozen: false });
    const frozen = { ...meta, clock: { ...meta.clock, frozen: true } };
    expect(continuedClock(frozen, wall)).toEqual(frozen.clock);
  });
});
