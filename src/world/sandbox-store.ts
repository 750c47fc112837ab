import type { Logger } from 'pino';
import { StoreFileError } from '../store/file-adapter.js';
import { createFileStore, openFileStore, type Store } from '../store/store.js';
import type { Db } from '../store/types.js';
import { moveAside } from './sandbox-files.js';

/**
 * The store of a file-backed sandbox: its file from an earlier use, or a new file from the seed.
 * An unreadable file is moved aside (kept for inspection, logged) and the sandbox starts anew:
 * a sandbox is disposable test state, and refusing it would block the job that owns the id.
 */
export async function openSandboxFile(
  file: string,
  newDb: () => Db,
  wallMs: number,
  log?: Logger,
): Promise<Store> {
  try {
    const existing = await openFileStore(file);
    if (existing) return existing;
  } catch (err) {
    if (!(err instanceof StoreFileError)) throw err;
    const aside = await moveAside(file, wallMs);
    log?.warn({ err, aside }, 'unreadable sandbox file moved aside; starting from the seed');
  }
  return createFileStore(file, newDb());
}
