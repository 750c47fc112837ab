import type { RequestHandler } from 'express';
import { ApiError } from '../contract/errors.js';

/** Response headers a browser client may read (rate limits, retries, sandbox metadata). */
export const EXPOSED_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Location',
  'X-Sandbox-Version',
  'X-Sandbox-Id',
  'X-Sandbox-Scenario-Applied',
  'X-Sandbox-Warning',
  'X-Sandbox-Error-Detail',
].join(', ');

/** Request headers a browser client may send (answered when the preflight names none). */
export const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Guest-Token',
  'X-Sandbox-Id',
  'X-Sandbox-Scenario',
  'X-Sandbox-Admin-Token',
].join(', ');

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

export type OriginPolicy = { kind: 'off' } | { kind: 'any' } | { kind: 'list'; origins: Set<string> };

/**
 * Reads `--cors-origins`: `*` (any origin), `off`, or a comma-separated list of origins.
 * Returns a message instead of a policy when the text is not one of those.
 * @example parseOrigins('http://localhost:5173, https://app.test')
 */
export function parseOrigins(text: string): OriginPolicy | string {
  const value = text.trim();
  if (value === '*' || value === '') return { kind: 'any' };
  if (value === 'off') return { kind: 'off' };
  const origins = value.split(',').map((o) => o.trim().replace(/\/$/, ''));
  const bad = origins.find((o) => !/^https?:\/\/[^/\s,]+$/.test(o));
  if (bad !== undefined)
    return `--cors-origins must be "*", "off" or origins like http://localhost:5173, got "${bad}"`;
  return { kind: 'list', origins: new Set(origins) };
}

/**
 * CORS for browser clients, written out instead of the `cors` package because it is a dozen lines:
 * a simple request gets Allow-Origin and Expose-Headers; a preflight (OPTIONS with
 * Access-Control-Request-Method) is answered 204 here, before validation would call OPTIONS a 405.
 * Auth is by header, never cookies, so credentials are not allowed and `*` is safe.
 */
export function corsMiddleware(policy: OriginPolicy): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (policy.kind === 'off' || origin === undefined) return next();
    const allowed = policy.kind === 'any' || policy.origins.has(origin);
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (policy.kind === 'list') res.vary('Origin');
    if (!allowed) {
      if (preflight) return next(new ApiError(403, `Origin ${origin} is not allowed by --cors-origins`));
      return next();
    }
    res.set('Access-Control-Allow-Origin', policy.kind === 'any' ? '*' : origin);
    res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (!preflight) return next();
    const asked = req.headers['access-control-request-headers'];
    res.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.set('Access-Control-Allow-Headers', asked && asked.length > 0 ? asked : ALLOWED_HEADERS);
    res.set('Access-Control-Max-Age', '600');
    if (policy.kind === 'any') res.vary('Access-Control-Request-Headers');
    res.status(204).end();
  };
}
