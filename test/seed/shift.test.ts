import { describe, expect, it } from 'vitest';
import { buildSeed, freshDb, SEED_ANCHOR } from '../../src/seed/seed.js';
import { shiftSeed } from '../../src/seed/shift.js';
import type { Db, ListingRecord } from '../../src/store/types.js';

const unpriced = ({ price_cents: _price, ...rest }: ListingRecord) => rest;

const DAY = 86_400_000;

describe('shiftSeed: a seed moved in time is the seed built at that time', () => {
  it('leaves no instant behind (users, keys, ledger, stores, listings, subscriptions, clock, start)', () => {
    const options = { seed: 42, listings: 120, clockStart: SEED_ANCHOR };
    const later = new Date(Date.parse(SEED_ANCHOR) + 327 * DAY + 3_600_000).toISOString();
    const moved = shiftSeed(buildSeed(options), Date.parse(later) - Date.parse(SEED_ANCHOR));
    // Prices are left out: a moved seed keeps the prices set at the anchor's exchange rates (the
    // same catalogue whenever a sandbox starts), where a build at `later` converts at its own.
    const timesOf = (db: Db) => JSON.stringify({ ...db, listings: Object.values(db.listings).map(unpriced) });
    expect(timesOf(moved)).toBe(timesOf(buildSeed({ ...options, clockStart: later })));
  });

  it('gives an unpinned fresh copy the wall time (whole seconds) as clock, seed start and clock record', () => {
    const wall = Date.parse('2026-11-25T06:30:12.345Z');
    const db = freshDb({ seed: 42, listings: 30, clockStart: '' }, wall);
    expect(db.meta.clock).toEqual({ now: '2026-11-25T06:30:12.000Z', frozen: false });
    expect(db.meta.seeded_at).toBe('2026-11-25T06:30:12.000Z');
    expect(db.meta.clock_recorded_at).toBe('2026-11-25T06:30:12.345Z');
    const pinned = freshDb({ seed: 42, listings: 30, clockStart: '2026-03-01T00:00:00.000Z' }, wall);
    expect(pinned.meta.clock.now).toBe('2026-03-01T00:00:00.000Z');
  });
});
