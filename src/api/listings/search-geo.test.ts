import { describe, expect, it } from 'vitest';
import { listingRecord } from '../../../test/helpers/records.js';
import { Scratch } from './positions.js';
import { distanceKm, geoMatches, type GeoQuery } from './search-geo.js';
import { SearchIndex } from './search-index.js';

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

describe('geoMatches', () => {
  /** The positions within the radius, by distanceKm alone. */
  const reference = (points: [number, number][], geo: GeoQuery) =>
    points.flatMap(([lat, lng], i) => (distanceKm(geo.lat, geo.lng, lat, lng) <= geo.radiusKm ? [i] : []));

  it('finds exactly the listings distanceKm finds, whether a city cell is taken whole, skipped or checked', () => {
    const r = random(11);
    const points: [number, number][] = [];
    // Three cities a few km wide (most searches near one take or skip its cell whole), and some
    // listings scattered over their 1° cells.
    for (const [lat, lng] of [
      [52.52, 13.405],
      [48.137, 11.575],
      [-33.87, 151.21],
    ])
      for (let k = 0; k < 300; k += 1) points.push([lat + (r() - 0.5) * 0.1, lng + (r() - 0.5) * 0.1]);
    for (let k = 0; k < 60; k += 1) points.push([52 + r(), 13 + r()]);
    const index = new SearchIndex();
    points.forEach(([lat, lng], i) => index.add(listingRecord(i, { lat, lng })));
    const s = new Scratch().ensure(points.length);
    const found = (geo: GeoQuery) => [...(geoMatches(geo, index, s.lists[0]) ?? [])];
    let checked = 0;
    for (let k = 0; k < 400; k += 1) {
      const [lat, lng] = points[Math.floor(r() * points.length)];
      const geo = {
        lat: lat + (r() - 0.5) * 1.5,
        lng: lng + (r() - 0.5) * 1.5,
        radiusKm: [1, 5, 20, 50, 120][k % 5],
      };
      expect(found(geo), JSON.stringify(geo)).toEqual(reference(points, geo));
      // A radius exactly at one listing's distance takes it; a float less leaves it.
      const [pLat, pLng] = points[Math.floor(r() * points.length)];
      const d = distanceKm(geo.lat, geo.lng, pLat, pLng);
      for (const radiusKm of [d, below(d)]) {
        const edge = { ...geo, radiusKm };
        expect(found(edge), JSON.stringify(edge)).toEqual(reference(points, edge));
      }
      checked += 3;
    }
    expect(checked).toBe(1200);
  });

  it('widens a cell when a listing arrives outside its box', () => {
    const points: [number, number][] = [
      [52.52, 13.4],
      [52.53, 13.41],
    ];
    const index = new SearchIndex();
    points.forEach(([lat, lng], i) => index.add(listingRecord(i, { lat, lng })));
    const s = new Scratch().ensure(4);
    const geo = { lat: 52.525, lng: 13.405, radiusKm: 3 };
    expect([...(geoMatches(geo, index, s.lists[0]) ?? [])]).toEqual([0, 1]);
    // Same 1° cell, 40 km away: the cell is no longer inside the circle as a whole.
    points.push([52.9, 13.9]);
    index.add(listingRecord(2, { lat: 52.9, lng: 13.9 }));
    s.ensure(4);
    expect([...(geoMatches(geo, index, s.lists[0]) ?? [])]).toEqual([0, 1]);
    expect([...(geoMatches({ ...geo, radiusKm: 60 }, index, s.lists[0]) ?? [])]).toEqual([0, 1, 2]);
  });
});
