import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../process/config.js';
import type { World } from '../world/world.js';

/** Finds the world a request acts on. The default registry has one world; isolation adds more. */
export interface WorldRegistry {
  readonly default: World;
  resolve(req: Request): World | Promise<World>;
  /**
   * The world a request names when it is live now (synchronous, for the fast read path); undefined
   * when it is not loaded or the id is malformed, so the full path handles the request.
   */
  liveWorld(req: Pick<Request, 'headers'>): World | undefined;
  /** Counts a request the fast read path answered for a live world (what `resolve` counts). */
  markUsed(world: World): void;
  /** Every live world (for shutdown flushes and listings). */
  all(): World[];
}

export function singleWorld(world: World): WorldRegistry {
  return {
    default: world,
    resolve: () => world,
    liveWorld: () => world,
    markUsed: () => undefined,
    all: () => [world],
  };
}

/** Everything createApp needs; built by the CLI or by tests, never by the app itself. */
export interface AppDeps {
  config: Config;
  worlds: WorldRegistry;
  jwtSecret: string;
  log: Logger;
  version: string;
}
