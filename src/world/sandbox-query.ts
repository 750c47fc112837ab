import type { WorldRegistry } from '../app/deps.js';
import { isSandboxRegistry } from './registry-types.js';
import { DEFAULT_SANDBOX_ID } from './sandbox-id.js';
import type { World } from './world.js';

/**
 * The world a URL names with `?sandbox_id=` (request validation has checked its form): a link a
 * browser follows or an image it loads carries no `X-Sandbox-Id`, so the URL names its sandbox.
 * Without the argument, the world the request selected (its header, or the default sandbox).
 * @example await worldNamedBy(deps.worlds, req.world, req.query.sandbox_id)
 */
export async function worldNamedBy(
  worlds: WorldRegistry,
  selected: World,
  sandboxId: string | undefined,
): Promise<World> {
  if (sandboxId === undefined || sandboxId === selected.id) return selected;
  if (sandboxId === DEFAULT_SANDBOX_ID || !isSandboxRegistry(worlds)) return worlds.default;
  return worlds.open(sandboxId);
}
