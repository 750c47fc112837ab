import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { extra, type World } from '../../world/world.js';

/**
 * Where a world keeps uploaded bytes: beside its database file (`<data dir>/uploads/`) for a
 * file-backed store, in memory for a memory store (gone with the process). The records
 * (`db.uploads`) live in the database either way.
 */
export interface UploadStorage {
  put(name: string, bytes: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
}

function fileStorage(dir: string): UploadStorage {
  return {
    async put(name, bytes) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes);
    },
    async get(name) {
      try {
        return await readFile(join(dir, name));
      } catch {
        return undefined;
      }
    },
  };
}

function memoryStorage(world: World): UploadStorage {
  const files = new Map<string, Buffer>();
  world.onReset(() => files.clear());
  return {
    put: async (name, bytes) => void files.set(name, bytes),
    get: async (name) => files.get(name),
  };
}

/** The world's upload storage. */
export function uploadStorage(world: World): UploadStorage {
  return extra(world, 'catalog.uploads', () =>
    world.store.kind === 'file'
      ? fileStorage(join(dirname(world.store.location), 'uploads'))
      : memoryStorage(world),
  );
}
