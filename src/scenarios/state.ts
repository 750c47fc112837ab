import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { credentialsOf } from '../stages/principal.js';
import type { Schema } from '../contract/types.js';
import { ApiError } from '../contract/errors.js';
import { extra, type World } from '../world/world.js';
import type { Switch } from './definitions.js';
import { pathMatches } from './path-pattern.js';

/**
 * Who and what a sticky switch applies to; every field given must match: the credential (JWT, API
 * key or guest token), the user's e-mail, the method (any when absent or `*`), the path pattern
 * (`*` stays within a segment, `**` crosses segments).
 */
export type SwitchScope = Schema<'ScenarioScope'>;

/**
 * A sticky switch as listed: stays on for matching requests until removed or its `remaining`
 * count is used up (null: unlimited); `source` is `api`, `startup` or `file:<name>`.
 */
export type StickySwitch = Schema<'ScenarioSwitch'>;

type StoredSwitch = StickySwitch & { credentialHash?: string };

interface ScenarioState {
  switches: StoredSwitch[];
  nextId: number;
  /** False until the start-up scenario (`--scenario`) has been applied to this world's data. */
  startupApplied: boolean;
}

/** The per-world scenario state; a reset clears the switches and re-arms the start-up scenario. */
export function scenarioState(world: World): ScenarioState {
  return extra(world, 'scenarios', () => {
    const state: ScenarioState = { switches: [], nextId: 1, startupApplied: false };
    world.onReset(() => {
      state.switches = [];
      state.startupApplied = false;
    });
    return state;
  });
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Sticky switches a sandbox holds at once: each request is matched against every one of them. */
export const MAX_STICKY = 100;

/** Refuses (409) switches that would take the sandbox past {@link MAX_STICKY}; nothing is added. */
export function checkStickyRoom(world: World, count: number): void {
  if (scenarioState(world).switches.length + count > MAX_STICKY)
    throw new ApiError(
      409,
      `A sandbox holds at most ${MAX_STICKY} sticky scenario switches; delete some first (DELETE /__sandbox/scenarios)`,
    );
}

/** Adds a sticky switch and returns it as listed (the credential shown only by its start). */
export function addSticky(
  world: World,
  sw: Switch,
  options: { scope?: SwitchScope; count?: number | null; source: string },
): StickySwitch {
  checkStickyRoom(world, 1);
  const state = scenarioState(world);
  const scope = { ...(options.scope ?? {}) };
  const stored: StoredSwitch = {
    ...sw,
    id: `sw_${state.nextId++}`,
    scope,
    remaining: options.count ?? null,
    source: options.source,
    created_at: world.clock.nowIso(),
  };
  if (scope.method) scope.method = scope.method.toUpperCase();
  if (scope.credential) {
    stored.credentialHash = hash(scope.credential);
    scope.credential = `${scope.credential.slice(0, 12)}…`;
  }
  if (scope.user) scope.user = scope.user.trim().toLowerCase();
  state.switches.push(stored);
  return publicSwitch(stored);
}

export function publicSwitch(sw: StoredSwitch): StickySwitch {
  const { credentialHash: _omit, ...shown } = sw;
  return shown;
}

export function listSticky(world: World): StickySwitch[] {
  return scenarioState(world).switches.map(publicSwitch);
}

/** Removes one switch (true) or every switch (its count). */
export function removeSticky(world: World, id?: string): number {
  const state = scenarioState(world);
  const before = state.switches.length;
  state.switches = id === undefined ? [] : state.switches.filter((s) => s.id !== id);
  return before - state.switches.length;
}

function scopeMatches(world: World, sw: StoredSwitch, req: Request): boolean {
  const { scope } = sw;
  if (scope.method && scope.method !== '*' && scope.method !== req.method) return false;
  if (scope.path && !pathMatches(scope.path, req.path)) return false;
  if (sw.credentialHash) {
    const { user, guest } = credentialsOf(req);
    const sent = [user?.value, guest].filter((c) => c !== undefined);
    if (!sent.some((c) => hash(c) === sw.credentialHash)) return false;
  }
  if (scope.user) {
    const id = req.principal?.user?.id;
    if (!id || world.store.db.users[id]?.email !== scope.user) return false;
  }
  return true;
}

/** The sticky switches whose scope matches this request (not yet consumed). */
export function matchingSticky(world: World, req: Request): StoredSwitch[] {
  return scenarioState(world).switches.filter((sw) => scopeMatches(world, sw, req));
}

/**
 * Uses one application of a switch; false when another request used the last one first.
 * Checked and decremented synchronously, so concurrent requests cannot both take the last one.
 */
export function consume(world: World, sw: StoredSwitch): boolean {
  if (sw.remaining === null) return true;
  if (sw.remaining <= 0) return false;
  sw.remaining -= 1;
  if (sw.remaining === 0) {
    const state = scenarioState(world);
    state.switches = state.switches.filter((s) => s !== sw);
  }
  return true;
}
