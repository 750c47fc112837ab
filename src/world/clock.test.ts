import { describe, expect, it } from 'vitest';
import { createClock, parseDuration } from './clock.js';

describe('parseDuration', () => {
  it('reads units, combinations and plain milliseconds', () => {
    expect(parseDuration('25h')).toBe(90_000_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1d12h')).toBe(129_600_000);
    expect(parseDuration('1500ms')).toBe(1500);
    expect(parseDuration('2w')).toBe(1_209_600_000);
    expect(parseDuration(250)).toBe(250);
    expect(parseDuration('250')).toBe(250);
  });

  it('returns null for anything else', () => {
    for (const bad of ['', 'soon', '1y', 'h', '1.5h', '1h 30m', 1.5]) expect(parseDuration(bad)).toBeNull();
  });
});

describe('createClock', () => {
  it('runs with the wall clock, freezes, sets and advances', () => {
    let wall = 1_000;
    const clock = createClock({ now: '2026-01-01T00:00:00.000Z', frozen: false }, () => wall);
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    wall += 500;
    expect(clock.now()).toBe(start + 500);
    clock.freeze(true);
    wall += 10_000;
    expect(clock.now()).toBe(start + 500);
    clock.advance(1000);
    expect(clock.state()).toEqual({ now: new Date(start + 1500).toISOString(), frozen: true });
    clock.freeze(false);
    wall += 100;
    expect(clock.now()).toBe(start + 1600);
    clock.set(0);
    expect(clock.nowIso()).toBe('1970-01-01T00:00:00.000Z');
  });
});
