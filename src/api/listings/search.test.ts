import { describe, expect, it } from 'vitest';
import { distanceKm } from './search.js';
import { pagination } from './query.js';

describe('distanceKm', () => {
  it('gives great-circle distances', () => {
    expect(distanceKm(52.52, 13.405, 48.8566, 2.3522)).toBeCloseTo(878, -1);
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(20015, -1);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });
});

describe('pagination', () => {
  it('counts pages, zero for an empty result', () => {
    expect(pagination(1, 12, 25)).toEqual({ page: 1, limit: 12, total: 25, totalPages: 3 });
    expect(pagination(3, 50, 0)).toEqual({ page: 3, limit: 50, total: 0, totalPages: 0 });
  });
});
