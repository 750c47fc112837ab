import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ApiError } from '../contract/errors.js';
import { isControlPath, routedPath } from '../contract/control-paths.js';

export const ADMIN_HEADER = 'x-sandbox-admin-token';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The refusal of a control call (`/__sandbox/*`) that needs the admin token and does not send it
 * (or sends another), undefined when it may go on: every control call needs
 * `X-Sandbox-Admin-Token` once one is configured, except `GET /__sandbox/health`, which stays open
 * so a container health check needs no secret. The public API is unaffected.
 */
export function adminTokenRefusal(
  token: string,
  req: Pick<Request, 'method' | 'path' | 'headers'>,
  expected = digest(token),
): ApiError | undefined {
  if (!token || !isControlPath(req.path)) return undefined;
  if (req.method === 'GET' && routedPath(req.path) === '/__sandbox/health') return undefined;
  const sent = req.headers[ADMIN_HEADER];
  // Compare digests so the comparison takes the same time whatever the length sent.
  if (typeof sent === 'string' && timingSafeEqual(digest(sent), expected)) return undefined;
  return new ApiError(
    401,
    sent === undefined
      ? 'The control API needs the X-Sandbox-Admin-Token header'
      : 'Invalid X-Sandbox-Admin-Token',
  );
}

/** The admin-token stage (docs/architecture.md, 8): {@link adminTokenRefusal} as a middleware. */
export function adminTokenGuard(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => next(adminTokenRefusal(token, req, expected));
}
