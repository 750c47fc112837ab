import { describe, expect, it } from 'vitest';
import { distanceKm, firstKeys } from './search.js';

describe('distanceKm', () => {
  it('gives great-circle distances', () => {
    expect(distanceKm(52.52, 13.405, 48.8566, 2.3522)).toBeCloseTo(878, -1);
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(20015, -1);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });
});

describe('firstKeys', () => {
  it('gives the m smallest keys in order, as a whole sort does', () => {
    let x = 12_345;
    const next = () => (x = (x * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (const size of [1, 2, 3, 10, 100, 5_000]) {
      // Distinct keys, as a search's are (tier × n + rank), in shuffled order.
      const keys = Float64Array.from({ length: size }, (_, k) => k * 3 + 1);
      for (let k = size - 1; k > 0; k -= 1) {
        const j = next() % (k + 1);
        [keys[k], keys[j]] = [keys[j], keys[k]];
      }
      const sorted = Float64Array.from(keys).sort();
      for (const m of [1, 2, 5, 20, size]) {
        if (m > size) continue;
        expect([...firstKeys(keys, m)], `${m} of ${size}`).toEqual([...sorted.subarray(0, m)]);
      }
    }
  });
});
