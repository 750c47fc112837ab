import type { RequestHandler } from 'express';
import type { Config } from '../process/config.js';
import { ensureStartupScenario, resolveStartupScenario } from '../scenarios/activate.js';
import { collectScenarios } from '../scenarios/query.js';
import { isControlPath } from '../contract/control-paths.js';

/**
 * The scenarios stage: the `--scenario` file applied to the request's world once, then the
 * switches on for the request (`X-Sandbox-Scenario`, an unknown name in it is a 400 here, and the
 * world's sticky switches). Their effects come later, after validation (scenarios/effects.ts).
 * Control calls take no scenario.
 */
export function scenariosStage(config: Config): RequestHandler {
  const startup = resolveStartupScenario(config);
  return (req, res, next) => {
    ensureStartupScenario(req.world, startup);
    if (!isControlPath(req.path)) collectScenarios(req, res);
    next();
  };
}
