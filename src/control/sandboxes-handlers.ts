import type { AppDeps } from '../app/deps.js';
import { ApiError } from '../contract/errors.js';
import { DEFAULT_NOT_DELETABLE, DEFAULT_SANDBOX_ID, sandboxIdOf } from '../world/sandbox-id.js';
import { liveInfo } from '../world/sandbox-info.js';
import { isSandboxRegistry } from '../world/registry.js';
import type { Handlers } from '../contract/handler.js';

/** `GET /__sandbox/sandboxes` and `DELETE /__sandbox` (docs/isolation.md). */
export function sandboxesHandlers(deps: AppDeps) {
  const { worlds } = deps;
  return {
    listSandboxes: async (req, res) => {
      if (!isSandboxRegistry(worlds)) {
        // An app built on a plain WorldRegistry (an embedding's own) has only the default sandbox.
        const entry = { world: worlds.default, loadedAt: 0, lastUsed: 0, requests: 0, active: 0 };
        const sandboxes = [await liveInfo(entry, req.world.id, 0)];
        res.json({ max_sandboxes: 0, idle_minutes: 0, live: 0, sandboxes });
        return;
      }
      const sandboxes = await worlds.list(sandboxIdOf(req));
      res.json({
        max_sandboxes: worlds.maxSandboxes,
        idle_minutes: worlds.idleMs / 60_000,
        live: worlds.liveIds().length,
        sandboxes,
      });
    },
    deleteSandbox: async (req, res) => {
      // The id the request names: a sandbox that is not live is not loaded to be deleted (its
      // files may be unreadable), so `req.world` stands in for it (stages/world.ts).
      const id = sandboxIdOf(req);
      if (id === DEFAULT_SANDBOX_ID || !isSandboxRegistry(worlds))
        throw new ApiError(400, DEFAULT_NOT_DELETABLE);
      await worlds.remove(id);
      res.json({ success: true, id });
    },
  } satisfies Handlers;
}
