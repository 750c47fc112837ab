import type { components } from '../generated/api.js';

/** The clock as GET /__sandbox/clock shows it (openapi.yaml `Clock`): sandbox time and whether it is frozen. */
export type ClockState = components['schemas']['Clock'];

/** Sandbox time: runs with the wall clock from a chosen instant, can be frozen, set and advanced. */

export interface Clock {
  /** Milliseconds since the epoch, in sandbox time. */
  now(): number;
  nowIso(): string;
  isFrozen(): boolean;
  set(ms: number): void;
  advance(ms: number): void;
  freeze(frozen: boolean): void;
  state(): ClockState;
}

/**
 * @example
 * const clock = createClock({ now: '2026-01-01T00:00:00.000Z', frozen: false });
 * clock.advance(25 * 3600_000);
 */
export function createClock(initial: ClockState, wallClock: () => number = Date.now): Clock {
  let base = Date.parse(initial.now);
  let wallAtBase = wallClock();
  let frozen = initial.frozen;
  const now = () => (frozen ? base : base + (wallClock() - wallAtBase));
  const rebase = (ms: number) => {
    base = ms;
    wallAtBase = wallClock();
  };
  return {
    now,
    nowIso: () => new Date(now()).toISOString(),
    isFrozen: () => frozen,
    set: (ms) => rebase(ms),
    advance: (ms) => rebase(now() + ms),
    freeze(value) {
      rebase(now());
      frozen = value;
    },
    state: () => ({ now: new Date(now()).toISOString(), frozen }),
  };
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Parses a duration such as `25h`, `30m`, `1d12h`, `1500ms` or a number of milliseconds.
 * Returns null when the text is not a duration.
 * @example parseDuration('1h30m') // 5_400_000
 */
export function parseDuration(value: string | number): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  const text = value.trim();
  if (/^-?\d+$/.test(text)) return Number(text);
  const match = /^(-)?((?:\d+(?:ms|s|m|h|d|w))+)$/.exec(text);
  if (!match) return null;
  let total = 0;
  for (const part of match[2].matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(part[1]) * UNIT_MS[part[2]];
  return Number.isSafeInteger(total) ? (match[1] ? -total : total) : null;
}
