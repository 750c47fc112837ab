/** Public entry of the package: build the app yourself, or start a whole sandbox. */
export { createApp } from './app.js';
export { startServer, type RunningSandbox } from './server.js';
export { makeConfig, defaultConfig, type Config } from './config.js';
export type { AppDeps, WorldRegistry } from './deps.js';
// >>> integrator exports
export {
  startSandbox,
  SandboxError,
  type Sandbox,
  type SandboxClock,
  type SandboxScenarios,
  type StartSandboxOptions,
} from './integrator/in-process.js';
export type { paths, components, operations } from './generated/api.js';
export { VERSION } from './version.js';
// <<< integrator exports
