import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { WorldRegistry } from '../../src/world/registry-types.js';
import type { Config } from '../../src/process/config.js';
import { readFileStore } from '../../src/store/store.js';

/**
 * The money and catalog suites run a second time on a file store (the vitest project
 * "file-store", which sets SANDBOX_TEST_STORE=file), the store a sandbox ships with. A file store
 * writes only the records a change wrote through the store (store/dirty-tracker.ts), so code
 * that changes a record through an object kept from before the mutation changes memory but not
 * the file. After each test, every file store of the test's sandboxes is flushed and read back
 * from disk, and must equal what the sandbox holds in memory.
 */
export const FILE_STORE = process.env.SANDBOX_TEST_STORE === 'file';

const registries: WorldRegistry[] = [];
const dirs: string[] = [];

/** Config for a test sandbox's default world: a fresh data file in the file-store run, else nothing. */
export function testStoreConfig(): Partial<Config> {
  if (!FILE_STORE) return {};
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-file-store-'));
  dirs.push(dir);
  return { inMemory: false, dataFile: join(dir, 'db.json') };
}

/** Has the worlds of a registry checked after each test of the file-store run. */
export function checkStoresOf(worlds: WorldRegistry): void {
  if (FILE_STORE) registries.push(worlds);
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Every file store's data on disk equals its data in memory (after a flush). A registry that
 * failed is not checked again, so one fault fails one test, not every later one of the file.
 */
export async function expectStoresOnDisk(): Promise<void> {
  for (const worlds of [...registries])
    for (const world of worlds.all()) {
      const { store } = world;
      // A test that put its sandbox in its own directory may have removed it already.
      if (store.kind !== 'file' || !existsSync(store.location)) continue;
      await store.flush();
      const onDisk = asJson(await readFileStore(store.location));
      if (isDeepStrictEqual(onDisk, asJson(store.db))) continue;
      registries.splice(registries.indexOf(worlds), 1);
      expect(onDisk, `sandbox ${world.id}: ${store.location} read back after a flush`).toEqual(
        asJson(store.db),
      );
    }
}

/** Closes the stores and removes the data files of the test file's sandboxes. */
export async function closeStores(): Promise<void> {
  for (const worlds of registries.splice(0)) for (const world of worlds.all()) await world.store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
