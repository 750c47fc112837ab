import { describe, expect, it } from 'vitest';
import { distanceKm } from './search.js';

describe('distanceKm', () => {
  it('gives great-circle distances', () => {
    expect(distanceKm(52.52, 13.405, 48.8566, 2.3522)).toBeCloseTo(878, -1);
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(20015, -1);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });
});
