import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.js';
import type { WorldRegistry } from '../world/registry-types.js';
import type { World } from '../world/world.js';
import { SANDBOX_ID_HEADER, sandboxIdOf } from '../world/sandbox-id.js';
import { adminTokenRefusal } from './admin-token.js';
import { isControlPath, routedPath } from '../contract/control-paths.js';
import { ApiError, Messages } from '../contract/errors.js';
import { addressLimit, countedAs, rateCountersOf, type Limit } from './rate-limit.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The sandbox world this request acts on (the world stage). */
    world: World;
    /** `world` stands in (the default world) for a sandbox the request may not bring live: unrecorded. */
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
 * the request bring it live (`sandboxAdmission`, below); else the default world stands in, unused.
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

/**
 * Control calls answered without the sandbox they name: the health check (about the process),
 * the list of sandboxes, and deleting one (which must work for a sandbox whose files cannot be
 * read, and need not load one to remove it).
 */
const NEEDS_NO_SANDBOX = new Set(['GET /__sandbox/health', 'GET /__sandbox/sandboxes', 'DELETE /__sandbox']);

/**
 * Loads a sandbox that is not live for the request that names it, or refuses to: bringing one
 * live (creating it from the seed, or loading its file) costs 50-85 ms of CPU and a place under
 * `--max-sandboxes`, so only a request that will be served by it may:
 * - a control call only with the admin token when one is set (a call the token refuses would get
 *   its 401 after making the sandbox, and 100 of them filled the cap); never the calls of
 *   {@link NEEDS_NO_SANDBOX} (the health check is open);
 * - any other request as one request of its address's rate-limit budget (100 a minute), counted
 *   when the sandbox is live, before the request's own count (which it then is): an address whose
 *   budget is used up (with the loads it has in flight) gets its 429 before anything is made,
 *   whatever credential it sends. The limit turned off (`--rate-limit 0`) bounds nothing.
 * Undefined: the request may not, and stands in with the default world, which it does not use
 * (its 401, or a call of {@link NEEDS_NO_SANDBOX}), unrecorded.
 */
export function sandboxAdmission(deps: AppDeps) {
  const counters = rateCountersOf(deps.worlds);
  /** Loads in flight per address: they count before their windows do. */
  const loading = new Map<string, number>();

  async function counted(req: Request, id: string, limit: Limit): Promise<World> {
    const { key } = limit;
    const open = counters.peek(key);
    const inFlight = loading.get(key) ?? 0;
    const hits = (open?.totalHits ?? 0) + inFlight;
    if (hits >= limit.limit) {
      const over = countedAs(limit, hits + 1, open?.leftMs ?? 1000);
      throw new ApiError(
        429,
        Messages.tooManyRequests,
        { ...Object.fromEntries(over.headers), 'Retry-After': String(Math.max(1, over.retryAfterS ?? 1)) },
        `sandbox "${id}" is not live and bringing it live counts as a request of this address, ` +
          `whose ${limit.limit} a minute are used up; nothing was made`,
      );
    }
    loading.set(key, inFlight + 1);
    let world: World;
    try {
      world = await deps.worlds.load(id);
    } finally {
      const left = (loading.get(key) ?? 1) - 1;
      if (left > 0) loading.set(key, left);
      else loading.delete(key);
    }
    counters.increment(key, world);
    req.countedAtLoad = key;
    return world;
  }

  return (req: Request, id: string): Promise<World> | undefined => {
    if (isControlPath(req.path)) {
      if (NEEDS_NO_SANDBOX.has(`${req.method} ${routedPath(req.path)}`)) return undefined;
      if (adminTokenRefusal(deps.config.adminToken, req)) return undefined;
      return deps.worlds.load(id);
    }
    const limit = addressLimit(req, deps.config, counters);
    return limit ? counted(req, id, limit) : deps.worlds.load(id);
  };
}
