import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.js';
import type { WorldRegistry } from '../world/registry-types.js';
import type { World } from '../world/world.js';
import { SANDBOX_ID_HEADER, sandboxIdOf } from '../world/sandbox-id.js';
import { sandboxAdmission } from './sandbox-admission.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The sandbox world this request acts on (the world stage). */
    world: World;
    /**
     * Set when the sandbox the request names is not live and the request may not bring it live:
     * `world` is then the default world as a stand-in, which the request reads at most (it is
     * refused, or is the health check), and the journal does not record it.
     */
    standIn?: boolean;
    /** The rate-limit key a request that brought its sandbox live was counted against then. */
    countedAtLoad?: string;
  }
}

export const VERSION_HEADER = 'X-Sandbox-Version';

const SANDBOX_ID_KEY = SANDBOX_ID_HEADER.toLowerCase();

/** Echoes `X-Sandbox-Id` when the request sent it. */
function echoSandboxId(req: IncomingMessage, res: ServerResponse, id: string): void {
  if (req.headers[SANDBOX_ID_KEY] !== undefined) res.setHeader(SANDBOX_ID_HEADER, id);
}

/** The world stage, once the world is known: the request counts as a use of it until its response closes. */
function enterWorld(worlds: WorldRegistry, world: World, req: IncomingMessage, res: ServerResponse): World {
  echoSandboxId(req, res, world.id);
  worlds.markUsed(world, res);
  return world;
}

/**
 * The world a request names: a malformed `X-Sandbox-Id` is a 400, the id is echoed even
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
  if (live) return enterWorld(worlds, live, req, res);
  return admit(id)?.then((world) => enterWorld(worlds, world, req, res));
}

/** The first stage: the version header and the request's world. */
export function worldStage(deps: AppDeps): RequestHandler {
  const admission = sandboxAdmission(deps);
  return (req, res, next) => {
    res.setHeader(VERSION_HEADER, deps.version);
    const enter = (world: World | undefined) => {
      req.world = world ?? deps.worlds.default;
      if (!world) req.standIn = true;
      next();
    };
    // Later stages (the error handler, the journal) may read req.world even on an early refusal.
    const refused = (err: unknown) => {
      req.world = deps.worlds.default;
      next(err);
    };
    let found: World | Promise<World> | undefined;
    try {
      found = selectWorld(deps.worlds, req, res, (id) => admission(req, id));
    } catch (err) {
      return refused(err);
    }
    // A live world goes on at once; one that is loading, once it is live.
    if (found instanceof Promise) return found.then(enter, refused);
    enter(found);
  };
}
