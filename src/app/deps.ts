import type { Logger } from 'pino';
import type { Config } from '../process/config.js';
import type { WorldRegistry } from '../world/registry-types.js';

/** Everything createApp needs; built by the CLI or by tests, never by the app itself. */
export interface AppDeps {
  config: Config;
  worlds: WorldRegistry;
  jwtSecret: string;
  log: Logger;
  version: string;
}
