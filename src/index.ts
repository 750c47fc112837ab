/** Public entry of the package: build the app yourself, or start a whole sandbox. */
export { createApp } from './app/app.js';
export { startServer, type RunningSandbox } from './process/server.js';
export { makeConfig, defaultConfig, type Config } from './process/config.js';
export type { AppDeps } from './app/deps.js';
export type { WorldRegistry } from './world/registry-types.js';
// What an integrator uses: the in-process sandbox and the contract's types.
export {
  startSandbox,
  SandboxError,
  type Sandbox,
  type SandboxClock,
  type SandboxScenarios,
  type StartSandboxOptions,
} from './process/in-process.js';
export type { paths, components, operations } from './generated/api.js';
export { VERSION } from './process/version.js';
