import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.js';
import type { WorldRegistry } from '../world/registry-types.js';
import type { World } from '../world/world.js';
import { SANDBOX_ID_HEADER, sandboxIdOf } from '../world/sandbox-id.js';
import { startContext } from './express-context.js';
import { sandboxAdmission } from './sandbox-admission.js';

export const VERSION_HEADER = 'X-Sandbox-Version';

/** The version stage: every answer of the app carries the sandbox's version. */
export function stampVersion(res: ServerResponse, version: string): void {
  res.setHeader(VERSION_HEADER, version);
}

const SANDBOX_ID_KEY = SANDBOX_ID_HEADER.toLowerCase();

/** Echoes `X-Sandbox-Id` when the request sent it. */
function echoSandboxId(req: IncomingMessage, res: ServerResponse, id: string): void {
  if (req.headers[SANDBOX_ID_KEY] !== undefined) res.setHeader(SANDBOX_ID_HEADER, id);
}

/**
 * The world stage, once the world is known: the request is counted as a use of it, and the id
 * echoed. `inUseUntil` is the response the world stays in use for (not evicted) until it closes:
 * the full path gives it, as it awaits between stages; a fast path answers synchronously, so
 * nothing can evict the world before it is done.
 */
export function enterWorld(
  worlds: WorldRegistry,
  world: World,
  req: IncomingMessage,
  res: ServerResponse,
  inUseUntil?: ServerResponse,
): World {
  echoSandboxId(req, res, world.id);
  worlds.markUsed(world, inUseUntil);
  return world;
}

/**
 * The world a request names when it is live now, found synchronously; undefined when it must be
 * loaded first or its id is malformed (the fast paths leave those to the full path).
 */
export function liveWorldOf(worlds: WorldRegistry, req: IncomingMessage): World | undefined {
  let id: string;
  try {
    id = sandboxIdOf(req);
  } catch {
    return undefined;
  }
  return worlds.live(id);
}

/**
 * The world stage on the full path: a malformed `X-Sandbox-Id` is a 400, the id is echoed even
 * when the world cannot be loaded (503 when full), a live world is taken synchronously (so no
 * eviction slips in before it is marked used), another is loaded or created when `admit` lets
 * the request bring it live (sandbox-admission.ts); else the default world stands in, unused.
 */
export function selectWorld(
  worlds: WorldRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  admit: (id: string) => Promise<World> | undefined = (id) => worlds.load(id),
): World | Promise<World> | undefined {
  const id = sandboxIdOf(req);
  echoSandboxId(req, res, id);
  const live = worlds.live(id);
  if (live) return enterWorld(worlds, live, req, res, res);
  return admit(id)?.then((world) => enterWorld(worlds, world, req, res, res));
}

/** The first stage of the full path: the request's context, its version header and its world. */
export function worldStage(deps: AppDeps): RequestHandler {
  const admission = sandboxAdmission(deps);
  return (req, res, next) => {
    const ctx = startContext(req, res);
    stampVersion(res, deps.version);
    const enter = (world: World | undefined) => {
      req.world = world ?? deps.worlds.default;
      if (!world) ctx.standIn = true;
      next();
    };
    // Later stages (the error handler, the journal) may read req.world even on an early refusal.
    const refused = (err: unknown) => {
      req.world = deps.worlds.default;
      next(err);
    };
    let found: World | Promise<World> | undefined;
    try {
      found = selectWorld(deps.worlds, req, res, (id) => admission(req, ctx, id));
    } catch (err) {
      return refused(err);
    }
    // A live world goes on at once; one that is loading, once it is live.
    if (found instanceof Promise) return found.then(enter, refused);
    enter(found);
  };
}
