import type { AppDeps } from '../app/deps.js';
import type { Handlers } from '../http/handler.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from './snapshots.js';

export function snapshotHandlers(_deps: AppDeps): Handlers {
  return {
    createSnapshot: (req, res) => {
      res.status(201).json(saveSnapshot(req.world, (req.body as { name: string }).name));
    },
    listSnapshots: (req, res) => {
      res.json({ snapshots: listSnapshots(req.world) });
    },
    restoreSnapshot: async (req, res) => {
      res.json(await restoreSnapshot(req.world, String(req.params.name)));
    },
    deleteSnapshot: (req, res) => {
      deleteSnapshot(req.world, String(req.params.name));
      res.json({ success: true, name: String(req.params.name) });
    },
  };
}
