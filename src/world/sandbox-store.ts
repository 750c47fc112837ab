import type { Logger } from 'pino';
import { ApiError } from '../contract/errors.js';
import { StoreFileError, withoutWayOut } from '../store/file-adapter.js';
import { createFileStore, openFileStore, type Store } from '../store/store.js';
import type { Db } from '../store/types.js';
import { filesSignature } from './sandbox-files.js';

/**
 * Opens the file stores of named sandboxes: a sandbox's file from an earlier use, or a new file
 * from the seed. A file it cannot read is refused and left exactly as it is (never moved,
 * rewritten or reseeded: the job that owns the id would lose its data without a word): every
 * request of that sandbox gets a 503 naming the file and the way out, remembered while the files
 * stay as they were, so that no request reads them again.
 */
export class SandboxFiles {
  private readonly unreadable = new Map<string, { signature: string; error: ApiError }>();

  async open(id: string, path: string, newDb: () => Db, log?: Logger): Promise<Store> {
    const known = this.unreadable.get(id);
    if (known && known.signature === (await filesSignature(path))) throw known.error;
    this.unreadable.delete(id);
    try {
      return (await openFileStore(path)) ?? (await createFileStore(path, newDb()));
    } catch (err) {
      if (!(err instanceof StoreFileError)) throw err;
      const error = new ApiError(
        503,
        `Sandbox "${id}" cannot be loaded: ${withoutWayOut(err.message)}. Its files were left untouched: ` +
          `move them away to keep them, or delete the sandbox (DELETE /__sandbox with X-Sandbox-Id: ${id}); ` +
          'its next use then starts from the seed',
      );
      this.unreadable.set(id, { signature: await filesSignature(path), error });
      log?.error({ err, id }, 'unreadable sandbox file: its requests are refused (503)');
      throw error;
    }
  }

  /** Forgets a refusal (the sandbox was deleted). */
  forget(id: string): void {
    this.unreadable.delete(id);
  }
}
