import { unionInto, type Scratch } from './positions.js';
import type { SearchIndex } from './search-index.js';

/** A location search: centre and radius in km. */
export interface GeoQuery {
  lat: number;
  lng: number;
  radiusKm: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/**
 * Great-circle distance in km (haversine).
 * @example distanceKm(52.52, 13.405, 48.8566, 2.3522) // ≈ 878
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return distanceFrom(lat1, lng1, Math.cos(lat1 * RAD), lat2, lng2);
}

/** {@link distanceKm} with the first point's cosine given: one point against many, same arithmetic. */
function distanceFrom(lat1: number, lng1: number, cosLat1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + cosLat1 * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** No point of a 1° cell is farther than this from the cell's centre (km, at the equator). */
const CELL_HALF_DIAGONAL_KM = 80;

/** How close to the radius (relative) a listing is measured exactly instead of by the bounds. */
const EDGE = 1e-9;

/**
 * Decides "within the radius" for many points around one centre more cheaply than
 * {@link distanceKm} for each, with the same answer:
 * - a point farther in latitude alone than the radius is out (no great circle between two points
 *   is shorter than their difference in latitude), without trigonometry;
 * - otherwise the haversine's inner term `h` is compared with its value at the radius
 *   (`sin²(radius / 2R)`), which skips the square root and arcsine;
 * - a point within a hair ({@link EDGE}) of the radius is measured with `distanceFrom` itself.
 */
export class Circle {
  readonly cosLat: number;
  private readonly band: number;
  private readonly low: number;
  private readonly high: number;

  constructor(readonly geo: GeoQuery) {
    this.cosLat = Math.cos(geo.lat * RAD);
    this.band = (geo.radiusKm / (EARTH_RADIUS_KM * RAD)) * (1 + EDGE);
    const half = geo.radiusKm / (2 * EARTH_RADIUS_KM);
    const h = half >= Math.PI / 2 ? Infinity : Math.sin(half) ** 2;
    this.low = h * (1 - EDGE);
    this.high = h * (1 + EDGE);
  }

  holds(lat: number, lng: number): boolean {
    const { geo } = this;
    const dLat = lat - geo.lat;
    if (dLat > this.band || -dLat > this.band) return false;
    const h =
      Math.sin(dLat * RAD * 0.5) ** 2 +
      this.cosLat * Math.cos(lat * RAD) * Math.sin((lng - geo.lng) * RAD * 0.5) ** 2;
    if (h < this.low) return true;
    if (h > this.high) return false;
    return distanceFrom(geo.lat, geo.lng, this.cosLat, lat, lng) <= geo.radiusKm;
  }
}

/**
 * Listings within the radius, sorted. Cells (1° buckets; only the few with listings exist) are
 * judged by their centre first: a cell surely outside is skipped, one surely inside is taken
 * whole, and only the cells on the circle's edge check each listing.
 */
export function geoMatches(
  geo: GeoQuery | undefined,
  index: SearchIndex,
  s: Scratch,
  out: Int32Array,
): Int32Array | undefined {
  if (!geo) return undefined;
  const lists: ArrayLike<number>[] = [];
  const circle = new Circle(geo);
  for (const cell of index.grid.values()) {
    const d = distanceFrom(geo.lat, geo.lng, circle.cosLat, cell.lat, cell.lng);
    if (d - CELL_HALF_DIAGONAL_KM > geo.radiusKm) continue;
    if (d + CELL_HALF_DIAGONAL_KM <= geo.radiusKm) {
      lists.push(cell.positions);
      continue;
    }
    const { positions, lats, lngs } = cell;
    const inside: number[] = [];
    for (let k = 0; k < positions.length; k += 1)
      if (circle.holds(lats[k], lngs[k])) inside.push(positions[k]);
    lists.push(inside);
  }
  return unionInto(out, lists, s, index.recs.length);
}
