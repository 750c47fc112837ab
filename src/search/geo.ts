const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/**
 * Great-circle distance in km (haversine): what `radius` is measured by.
 * @example distanceKm(52.52, 13.405, 48.8566, 2.3522) // ≈ 878
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
