import { unionInto } from './positions.js';
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

/** The relative margin by which a cell must clear the radius to be skipped or taken whole unmeasured. */
const EDGE = 1e-9;

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
  out: Int32Array,
): Int32Array | undefined {
  if (!geo) return undefined;
  const lists: ArrayLike<number>[] = [];
  const cosLat = Math.cos(geo.lat * RAD);
  const outside = geo.radiusKm * (1 + EDGE);
  const inside = geo.radiusKm * (1 - EDGE);
  for (const cell of index.grid.values()) {
    const lat = (cell.minLat + cell.maxLat) / 2;
    const lng = (cell.minLng + cell.maxLng) / 2;
    const d = distanceFrom(geo.lat, geo.lng, cosLat, lat, lng);
    const reach = reachOf(cell);
    if (d - reach > outside) continue;
    if (d + reach <= inside) {
      lists.push(cell.positions);
      continue;
    }
    const { positions, lats, lngs } = cell;
    const held: number[] = [];
    for (let k = 0; k < positions.length; k += 1)
      if (distanceFrom(geo.lat, geo.lng, cosLat, lats[k], lngs[k]) <= geo.radiusKm) held.push(positions[k]);
    lists.push(held);
  }
  return unionInto(out, lists);
}
