import type { AppDeps } from '../../app/deps.js';
import { randomBytes } from 'node:crypto';
import { userId } from '../../stages/principal.js';
import { API_KEY_PREFIX } from '../auth/tokens.js';
import { ApiError } from '../../contract/errors.js';
import { newId } from '../../world/ids.js';
import { sha256 } from '../auth/sha256.js';
import type { ApiKeyRecord } from '../../store/types.js';
import type { Handlers } from '../../contract/handler.js';

/** Active keys a user may hold at once; keeps a runaway script from filling the store. */
export const MAX_API_KEYS = 50;

function view(key: ApiKeyRecord) {
  return { id: key.id, name: key.name, prefix: key.prefix, created_at: key.created_at };
}

export function apiKeyHandlers(_deps: AppDeps) {
  return {
    createApiKey: async (req, res) => {
      const owner = userId(req);
      const key = `${API_KEY_PREFIX}${randomBytes(24).toString('hex')}`;
      const record = await req.world.store.commit((db) => {
        const active = Object.values(db.api_keys).filter((k) => k.user_id === owner && k.revoked_at === null);
        if (active.length >= MAX_API_KEYS)
          throw new ApiError(
            409,
            `A user can hold at most ${MAX_API_KEYS} active API keys; revoke one first`,
          );
        const id = newId(db);
        const name = req.body?.name ?? null;
        const created: ApiKeyRecord = {
          id,
          user_id: owner,
          name,
          prefix: key.slice(0, 16),
          hash: sha256(key),
          created_at: req.world.clock.nowIso(),
          revoked_at: null,
        };
        db.api_keys[id] = created;
        return created;
      });
      res.status(201).json({ ...view(record), key });
    },
    listApiKeys: (req, res) => {
      const owner = userId(req);
      const keys = Object.values(req.world.store.db.api_keys).filter(
        (k) => k.user_id === owner && k.revoked_at === null,
      );
      res.json({ api_keys: keys.map(view) });
    },
    revokeApiKey: async (req, res) => {
      const owner = userId(req);
      const { id } = req.params;
      await req.world.store.commit((db) => {
        const key = db.api_keys[id];
        if (!key || key.user_id !== owner || key.revoked_at !== null)
          throw new ApiError(404, 'API key not found');
        key.revoked_at = req.world.clock.nowIso();
      });
      res.json({ success: true, id });
    },
  } satisfies Handlers;
}
