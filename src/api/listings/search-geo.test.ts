import { describe, expect, it } from 'vitest';
import { Circle, distanceKm } from './search-geo.js';

/** A reproducible stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

/** The float just below `x` (x > 0). */
const below = (x: number) => x - x * Number.EPSILON;

describe('Circle', () => {
  it('answers as distanceKm <= radius does, near the edge and far from it', () => {
    const r = random(7);
    let checked = 0;
    for (let k = 0; k < 20_000; k += 1) {
      const lat = r() * 170 - 85;
      const lng = r() * 360 - 180;
      // Points near the centre, at every scale up to the antipode.
      const spread = [0.01, 0.5, 5, 60, 180][k % 5];
      const pLat = Math.max(-90, Math.min(90, lat + (r() - 0.5) * spread));
      const pLng = lng + (r() - 0.5) * spread * 2;
      const d = distanceKm(lat, lng, pLat, pLng);
      for (const radiusKm of [d, below(d), d * (1 + 1e-12), r() * 25_000, 0.5, 50, 30_000]) {
        if (!(radiusKm > 0)) continue;
        const circle = new Circle({ lat, lng, radiusKm });
        expect(circle.holds(pLat, pLng), `${lat},${lng} → ${pLat},${pLng} r ${radiusKm}`).toBe(
          distanceKm(lat, lng, pLat, pLng) <= radiusKm,
        );
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it('takes a point exactly at the radius and leaves one a float beyond it', () => {
    const d = distanceKm(52.52, 13.405, 52.9, 13.9);
    expect(new Circle({ lat: 52.52, lng: 13.405, radiusKm: d }).holds(52.9, 13.9)).toBe(true);
    expect(new Circle({ lat: 52.52, lng: 13.405, radiusKm: below(d) }).holds(52.9, 13.9)).toBe(false);
  });
});
