import type { Request, Response } from 'express';
import type { AnyRequest } from '../contract/handler.js';
import { formatSwitch, parseSwitchList, type Switch } from './definitions.js';
import { consume, matchingSticky } from './state.js';

/** A scenario switched on for one request: from the header (always on) or a sticky switch (counted). */
interface Candidate {
  sw: Switch;
  take: () => boolean;
}

interface RequestScenarios {
  res: Response;
  candidates: Candidate[];
  applied: string[];
}

// Keyed by the request object itself: the entry goes away with the request.
const perRequest = new WeakMap<object, RequestScenarios>();

export const APPLIED_HEADER = 'X-Sandbox-Scenario-Applied';

/**
 * Collects the scenarios on for this request: the `X-Sandbox-Scenario` header (400 on an unknown
 * name or bad parameter) first, then the matching sticky switches of the request's world.
 */
export function collectScenarios(req: Request, res: Response): void {
  const header = req.headers['x-sandbox-scenario'];
  const fromHeader = typeof header === 'string' ? parseSwitchList(header) : [];
  const candidates: Candidate[] = fromHeader.map((sw) => ({ sw, take: () => true }));
  for (const sticky of matchingSticky(req.world, req)) {
    candidates.push({ sw: sticky, take: () => consume(req.world, sticky) });
  }
  perRequest.set(req, { res, candidates, applied: [] });
}

/**
 * Applies a scenario if it is on for this request: uses one count of a sticky switch, adds it to
 * `X-Sandbox-Scenario-Applied`, and returns the switch (its parameter filled in); null when off.
 */
export function takeScenario(req: AnyRequest, name: string): Switch | null {
  const state = perRequest.get(req);
  if (!state) return null;
  for (const candidate of state.candidates) {
    if (candidate.sw.name !== name || !candidate.take()) continue;
    const shown = formatSwitch(candidate.sw);
    if (!state.applied.includes(shown)) state.applied.push(shown);
    if (!state.res.headersSent) state.res.set(APPLIED_HEADER, state.applied.join(', '));
    return { name: candidate.sw.name, param: candidate.sw.param };
  }
  return null;
}

/** Whether any scenario is switched on for this request (the header or a sticky switch), applied or not. */
export function anyScenarioOn(req: AnyRequest): boolean {
  return (perRequest.get(req)?.candidates.length ?? 0) > 0;
}

/** The scenarios applied to this request so far, as shown in `X-Sandbox-Scenario-Applied`. */
export function appliedScenarios(req: AnyRequest): string[] {
  return perRequest.get(req)?.applied ?? [];
}

/**
 * For the module a flag scenario concerns: true when `name` is on for this request, and it is then
 * counted as applied. Call it at the point where the scenario changes the outcome, and only there.
 * @example if (activeScenario(req, 'wallet.insufficient')) useProvider = true;
 */
export function activeScenario(req: AnyRequest, name: string): boolean {
  return takeScenario(req, name) !== null;
}

/**
 * Like activeScenario, for scenarios with a parameter: the parameter (default filled in), or null
 * when the scenario is off.
 * @example const hours = scenarioParam(req, 'rates.stale'); // 6, or null
 */
export function scenarioParam(req: AnyRequest, name: string): number | null {
  const taken = takeScenario(req, name);
  return taken === null ? null : (taken.param ?? 0);
}

/**
 * For the money module, where a provider payment is created: how the provider should resolve it by
 * itself (`provider.approve` wins over `provider.cancel`), or null to wait for the buyer.
 * @example const outcome = providerOutcome(req); // 'approve' | 'cancel' | null
 */
export function providerOutcome(req: AnyRequest): 'approve' | 'cancel' | null {
  if (activeScenario(req, 'provider.approve')) return 'approve';
  if (activeScenario(req, 'provider.cancel')) return 'cancel';
  return null;
}
