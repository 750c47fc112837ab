import type { AppDeps } from '../app/deps.js';
import type { Handlers } from '../contract/handler.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from './snapshots.js';

export function snapshotHandlers(_deps: AppDeps) {
  return {
    createSnapshot: (req, res) => {
      res.status(201).json(saveSnapshot(req.world, req.body.name));
    },
    listSnapshots: (req, res) => {
      res.json({ snapshots: listSnapshots(req.world) });
    },
    restoreSnapshot: async (req, res) => {
      res.json(await restoreSnapshot(req.world, req.params.name));
    },
    deleteSnapshot: (req, res) => {
      deleteSnapshot(req.world, req.params.name);
      res.json({ success: true, name: req.params.name });
    },
  } satisfies Handlers;
}
