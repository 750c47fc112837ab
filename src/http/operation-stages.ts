import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { enforceSecurity } from './auth.js';
import { refuseUnreadBody } from './body-stage.js';
import { leniencyStage } from './lenient-stage.js';
import { series } from './series.js';
import { operations } from './spec.js';

type Matches = (path: string) => unknown;

/** A parameter that does not percent-decode is a 400, worded as Express's router words it. */
function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    if (!(err instanceof URIError)) throw err;
    throw Object.assign(new Error(`Failed to decode param '${value}'`), { status: 400 });
  }
}

/**
 * The stages that need to know the operation and run before request validation
 * (docs/architecture.md, 12a-12c): security (so a credential is checked before the body: a bad
 * token with a bad body is a 401), then the body the body stage could not read, then the
 * leniencies. A request finds its operation as the handlers' router does (`ROUTER_OPTIONS`): the
 * path as written, case included, a trailing slash allowed, a HEAD as its GET, a parameter
 * percent-decoded (one that does not decode is a 400). A path that is no operation passes through
 * untouched (validation answers its 404 or 405), and so does an OPTIONS request. Matched here
 * rather than by an Express router: a router that a request leaves hands it on in a later turn of
 * the event loop, which every API request would pay.
 */
export function operationStages(strict: boolean): RequestHandler {
  const byMethod = new Map<string, { matches: Matches; stage: RequestHandler }[]>();
  for (const op of operations()) {
    const lenient = leniencyStage(op, strict);
    const stages = [enforceSecurity(op.security, op.optionalAuth, strict), refuseUnreadBody];
    if (lenient) stages.push(lenient);
    const matches = match(op.expressPath, { sensitive: true, trailing: true, decode: decodeParam });
    const method = op.method.toUpperCase();
    byMethod.set(method, [...(byMethod.get(method) ?? []), { matches, stage: series(stages) }]);
  }
  return (req, res, next) => {
    const routes = byMethod.get(req.method === 'HEAD' ? 'GET' : req.method);
    if (!routes) return next();
    // The pathname as the handlers' router reads it (parseurl: an absolute-form URL too), never decoded.
    const path = req.path;
    // openapi.yaml has at most one operation of a method for any path (operation-stages.test.ts).
    for (const { matches, stage } of routes) if (matches(path)) return stage(req, res, next);
    next();
  };
}
