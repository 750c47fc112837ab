import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../process/config.js';
import type { World } from '../world/world.js';

/**
 * The worlds requests act on, by sandbox id (the world stage, http/world-stage.ts, uses it). The
 * default registry has one world; isolation adds more.
 */
export interface WorldRegistry {
  readonly default: World;
  /** The world of an id when it is live now (synchronously); undefined when it must be loaded. */
  live(id: string): World | undefined;
  /** Loads or creates the world of an id; may refuse (503 when the sandbox limit is reached). */
  load(id: string): Promise<World>;
  /** Counts a request acting on the world, which is in use until `res` closes (when given). */
  markUsed(world: World, res?: ServerResponse): void;
  /** Every live world (for shutdown flushes and listings). */
  all(): World[];
}

export function singleWorld(world: World): WorldRegistry {
  return {
    default: world,
    live: () => world,
    load: async () => world,
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
