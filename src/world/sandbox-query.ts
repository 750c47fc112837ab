import type { WorldRegistry } from '../world/registry-types.js';
import { isSandboxRegistry } from './registry-types.js';
import { DEFAULT_SANDBOX_ID } from './sandbox-id.js';
import type { World } from './world.js';

/**
 * The world a URL names with `?sandbox_id=` (request validation has checked its form): a link a
 * browser follows or an image it loads carries no `X-Sandbox-Id`, so the URL names its sandbox.
 * Without the argument, the world the request selected (its header, or the default sandbox).
 * With `existingOnly`, a sandbox that holds no data (neither live nor on disk) is not made:
 * undefined.
 * @example await worldNamedBy(deps.worlds, req.world, req.query.sandbox_id)
 */
export async function worldNamedBy(
  worlds: WorldRegistry,
  selected: World,
  sandboxId: string | undefined,
): Promise<World>;
export async function worldNamedBy(
  worlds: WorldRegistry,
  selected: World,
  sandboxId: string | undefined,
  options: { existingOnly: true },
): Promise<World | undefined>;
export async function worldNamedBy(
  worlds: WorldRegistry,
  selected: World,
  sandboxId: string | undefined,
  options?: { existingOnly: true },
): Promise<World | undefined> {
  if (sandboxId === undefined || sandboxId === selected.id) return selected;
  if (sandboxId === DEFAULT_SANDBOX_ID || !isSandboxRegistry(worlds)) return worlds.default;
  return options?.existingOnly ? worlds.existing(sandboxId) : worlds.open(sandboxId);
}
