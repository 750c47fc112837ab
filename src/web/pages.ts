import express, { type RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.js';
import { corsMiddleware, parseOrigins } from './cors.js';
import { dashboardRouter } from './dashboard.js';
import { docsRouter } from './docs-pages.js';
import { PAGE_PATHS, ROUTER_OPTIONS } from '../contract/routing.js';

/**
 * The pages and assets outside the contract, mounted before the API: CORS (so preflights never
 * reach the validator), the interactive docs, the served contract and the dashboard. Only a page
 * path enters the pages' routers: a router that a request passes through untouched hands it on
 * in a later turn of the event loop (`setImmediate`), which every API request would pay.
 */
export function pagesStage(deps: AppDeps): RequestHandler {
  const policy = parseOrigins(deps.config.corsOrigins ?? '*');
  if (typeof policy === 'string') throw new Error(policy);
  const cors = corsMiddleware(policy);
  const pages = express.Router(ROUTER_OPTIONS);
  pages.use(docsRouter());
  pages.use(dashboardRouter());
  return (req, res, next) =>
    cors(req, res, (err?: unknown) => {
      if (err !== undefined || !PAGE_PATHS.test(req.path)) return next(err);
      pages(req, res, next);
    });
}
