import { unionInto, type Scratch } from './positions.js';
import type { Cell, SearchIndex } from './search-index.js';

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
 * How far (km) a point of a cell's box can be from the box's centre: the farthest corner. Along a
 * parallel the distance grows with the difference in longitude; along a meridian it is a
 * sinusoid whose highest point is the point of that great circle farthest from the centre, at
 * least 90° away, so outside a box within 1°: either way the farthest point is a corner.
 */
function reachOf(cell: Cell): number {
  if (Number.isNaN(cell.reach)) {
    const lat = (cell.minLat + cell.maxLat) / 2;
    const lng = (cell.minLng + cell.maxLng) / 2;
    const cos = Math.cos(lat * RAD);
    cell.reach = Math.max(
      distanceFrom(lat, lng, cos, cell.minLat, cell.minLng),
      distanceFrom(lat, lng, cos, cell.minLat, cell.maxLng),
      distanceFrom(lat, lng, cos, cell.maxLat, cell.minLng),
      distanceFrom(lat, lng, cos, cell.maxLat, cell.maxLng),
    );
  }
  return cell.reach;
}

/**
 * Listings within the radius, sorted. Cells (1° buckets; only the few with listings exist) are
 * judged by the box their listings span first (by the triangle inequality, from the box's
 * centre and its reach): a cell surely outside is skipped, one surely inside is taken whole, and
 * only the cells on the circle's edge check each listing. Listings cluster in cities, so most
 * searches near one take or skip its cell whole.
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
  const outside = geo.radiusKm * (1 + EDGE);
  const inside = geo.radiusKm * (1 - EDGE);
  for (const cell of index.grid.values()) {
    const lat = (cell.minLat + cell.maxLat) / 2;
    const lng = (cell.minLng + cell.maxLng) / 2;
    const d = distanceFrom(geo.lat, geo.lng, circle.cosLat, lat, lng);
    const reach = reachOf(cell);
    if (d - reach > outside) continue;
    if (d + reach <= inside) {
      lists.push(cell.positions);
      continue;
    }
    const { positions, lats, lngs } = cell;
    const held: number[] = [];
    for (let k = 0; k < positions.length; k += 1) if (circle.holds(lats[k], lngs[k])) held.push(positions[k]);
    lists.push(held);
  }
  return unionInto(out, lists);
}
