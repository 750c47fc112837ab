import express, { type Router } from 'express';
import type { AppDeps } from '../app/deps.js';
import { corsMiddleware, parseOrigins } from '../http/cors.js';
import { dashboardRouter } from './dashboard.js';
import { docsRouter } from './docs-pages.js';
import { ROUTER_OPTIONS } from '../http/routing.js';

/**
 * The pages and assets outside the contract, mounted before the API: CORS (so preflights never
 * reach the validator), the interactive docs, the served contract and the dashboard.
 */
export function pagesStage(deps: AppDeps): Router {
  const policy = parseOrigins(deps.config.corsOrigins ?? '*');
  if (typeof policy === 'string') throw new Error(policy);
  const router = express.Router(ROUTER_OPTIONS);
  router.use(corsMiddleware(policy));
  router.use(docsRouter());
  router.use(dashboardRouter());
  return router;
}
