import { spawnSync } from 'node:child_process';
import { ROOT } from './cli.js';

let built: Promise<void> | undefined;

/**
 * Vitest's global setup: builds the CLI as it ships (`dist/bin.js`, the bundle: scripts/bundle.mjs,
 * esbuild, a few seconds) from the sources of this run, so every test that starts the real CLI
 * runs the shipped artefact, never a stale one and never the sources through tsx. Vitest calls it
 * once per project, in one process: the first call builds, the others wait for it.
 */
export default function setup(): Promise<void> {
  built ??= Promise.resolve().then(() => {
    const run = spawnSync(process.execPath, ['scripts/bundle.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`scripts/bundle.mjs failed: ${run.stderr || run.stdout}`);
  });
  return built;
}
