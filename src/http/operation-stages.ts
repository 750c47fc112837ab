import express, { type RequestHandler } from 'express';
import { enforceSecurity } from './auth.js';
import { refuseUnreadBody } from './body-stage.js';
import { leniencyStage } from './lenient-stage.js';
import { ROUTER_OPTIONS } from './routing.js';
import { operations } from './spec.js';

/**
 * The stages that need to know the operation and run before request validation
 * (docs/architecture.md, 12a-12c), routed per operation of openapi.yaml as the handlers are:
 * security (so a credential is checked before the body: a bad token with a bad body is a 401),
 * then the body the body stage could not read, then the leniencies. A path that is no operation
 * passes through untouched (validation answers its 404 or 405), and so does an OPTIONS request (a
 * router would answer it with its methods; validation answers 405, and CORS preflights earlier).
 */
export function operationStages(strict: boolean): RequestHandler {
  const router = express.Router(ROUTER_OPTIONS);
  for (const op of operations()) {
    const lenient = leniencyStage(op, strict);
    const stages = [enforceSecurity(op.security, op.optionalAuth, strict), refuseUnreadBody];
    router[op.method as 'get'](op.expressPath, ...stages, ...(lenient ? [lenient] : []));
  }
  return (req, res, next) => (req.method === 'OPTIONS' ? next() : router(req, res, next));
}
