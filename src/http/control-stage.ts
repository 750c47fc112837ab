import type { RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.js';
import { ensureStartupScenario, resolveStartupScenario } from '../scenarios/activate.js';
import { collectScenarios } from '../scenarios/query.js';
import { adminTokenGuard } from './admin-token.js';
import { isControlPath } from './control-paths.js';
import { rateLimiting } from './rate-limit.js';
import { rateCountersOf } from './rate-counters.js';
import { requestJournal } from './request-journal.js';

/**
 * The stage between the principal and request validation, in order: the request journal (so it
 * sees every answer, 401s and 429s included), the admin token, rate limiting, and the scenario
 * switches on for the request (an unknown name in X-Sandbox-Scenario is a 400 here). Effects are
 * applied later, after validation (scenarios/effects.ts).
 */
export function controlStages(deps: AppDeps): RequestHandler[] {
  const { config } = deps;
  const startup = resolveStartupScenario(config);
  const scenarios: RequestHandler = (req, res, next) => {
    ensureStartupScenario(req.world, startup);
    if (!isControlPath(req.path)) collectScenarios(req, res);
    next();
  };
  return [
    requestJournal(config.journalSize),
    adminTokenGuard(config.adminToken),
    rateLimiting(config, rateCountersOf(deps.worlds)),
    scenarios,
  ];
}
