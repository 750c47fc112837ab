import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app/app.js';
import { makeConfig, type Config } from '../../src/process/config.js';
import { VERSION } from '../../src/process/version.js';
import { openDefaultWorld } from '../../src/world/open.js';
import { createWorldRegistry } from '../../src/world/registry.js';
import { checked } from '../helpers/checked-clients.js';
import { TEST_JWT_SECRET } from '../helpers/sandbox.js';

/**
 * A sandbox as the CLI builds it, with its default world in a file store at `dataFile` (opened if
 * it exists, else seeded), in process behind supertest, so a test can swap the file system under
 * it (vi.mock of node:fs/promises) or reopen the files after a write.
 */
export async function fileSandbox(dataFile: string, overrides: Partial<Config> = {}) {
  const config = makeConfig({ dataFile, inMemory: false, listings: 60, ...overrides });
  const { world } = await openDefaultWorld(config);
  const worlds = await createWorldRegistry({ config, defaultWorld: world });
  const app = createApp({
    config,
    worlds,
    jwtSecret: TEST_JWT_SECRET,
    log: pino({ level: 'silent' }),
    version: VERSION,
  });
  return {
    http: checked(supertest(app)),
    world,
    /** Flushes and releases the files (a later open sees exactly what is on disk). */
    close: () => Promise.all(worlds.all().map((w) => w.store.close())),
  };
}
