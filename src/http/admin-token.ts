import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.js';
import { isControlPath } from './control-paths.js';

export const ADMIN_HEADER = 'x-sandbox-admin-token';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * When an admin token is configured, every control call (`/__sandbox/*`) needs it in
 * `X-Sandbox-Admin-Token`; the public API is unaffected. `GET /__sandbox/health` stays open so a
 * container health check needs no secret.
 */
export function adminTokenGuard(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    if (!token || !isControlPath(req.path)) return next();
    if (req.method === 'GET' && req.path === '/__sandbox/health') return next();
    const sent = req.headers[ADMIN_HEADER];
    // Compare digests so the comparison takes the same time whatever the length sent.
    if (typeof sent === 'string' && timingSafeEqual(digest(sent), expected)) return next();
    next(
      new ApiError(
        401,
        sent === undefined
          ? 'The control API needs the X-Sandbox-Admin-Token header'
          : 'Invalid X-Sandbox-Admin-Token',
      ),
    );
  };
}
