import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import { appliedScenarios } from '../scenarios/query.js';
import type { World } from '../world/world.js';
import type { Principal } from './auth.js';
import type { RequestContext } from './request-context.js';

/**
 * The request context on the full path: it reads through to the Express request, whose world,
 * principal, query and body the Express stages fill in as the request goes along.
 */
class ExpressContext implements RequestContext {
  readonly started = performance.now();
  sent: string | Buffer | undefined;
  standIn?: boolean;
  countedAtLoad?: string;
  private keptQuery: Record<string, unknown> | undefined;

  constructor(
    readonly req: Request,
    readonly res: Response,
  ) {}

  get world(): World {
    return this.req.world;
  }
  get principal(): Principal {
    return this.req.principal ?? {};
  }
  get protocol(): string {
    return this.req.protocol;
  }
  get address(): string {
    return this.req.ip ?? '';
  }
  get path(): string {
    return this.req.path;
  }
  /** The validated query, or the one a cached answer was made for (set by the cache stage). */
  get query(): Record<string, unknown> {
    return this.keptQuery ?? (this.req.query as Record<string, unknown>);
  }
  set query(query: Record<string, unknown>) {
    this.keptQuery = query;
  }
  get body(): unknown {
    return this.req.body;
  }
  get applied(): readonly string[] {
    return appliedScenarios(this.req);
  }
}

/** Starts the context of a request on the full path (the first stage does, see world-stage.ts). */
export function startContext(req: Request, res: Response): RequestContext {
  const ctx = new ExpressContext(req, res);
  res.locals.ctx = ctx;
  return ctx;
}

/** The context of a request on the full path. */
export function contextOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}
