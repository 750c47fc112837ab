import { pino } from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app.js';
import { makeConfig } from '../../src/process/config.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { WorldRegistry } from '../../src/world/registry-types.js';
import { freshDb } from '../../src/seed/seed.js';
import { createMemoryStore } from '../../src/store/store.js';
import { VERSION } from '../../src/process/version.js';
import { seedOptionsOf } from '../../src/world/open.js';
import { makeWorld, type World } from '../../src/world/world.js';
import { checked } from '../helpers/checked-clients.js';
import { TEST_JWT_SECRET } from '../helpers/sandbox.js';
import { serverFor } from '../../src/process/http-server.js';

/** Two worlds chosen by X-Sandbox-Id, as the isolation module will do, to check nothing leaks between them. */
function twoWorlds(overrides = {}) {
  const config = makeConfig({ inMemory: true, listings: 10, ...overrides });
  const options = seedOptionsOf(config);
  const worlds = new Map<string, World>();
  const get = (id: string) => {
    if (!worlds.has(id))
      worlds.set(
        id,
        makeWorld(id, createMemoryStore(freshDb(options, Date.now())), options, async (wall) =>
          freshDb(options, wall),
        ),
      );
    return worlds.get(id) as World;
  };
  const registry: WorldRegistry = {
    default: get('default'),
    live: (id) => get(id),
    load: async (id) => get(id),
    markUsed: () => undefined,
    all: () => [...worlds.values()],
  };

  const deps: AppDeps = {
    config,
    worlds: registry,
    jwtSecret: TEST_JWT_SECRET,
    log: pino({ level: 'silent' }),
    version: VERSION,
  };
  return checked(supertest(serverFor(createApp(deps))));
}

describe('per-world state', () => {
  it('keeps sticky switches, journals and snapshots apart, and shares the rate limit', async () => {
    const http = twoWorlds({ rateLimit: 1 });
    expect((await http.get('/api/auth/me').set('X-Sandbox-Id', 'a')).status).toBe(401);
    expect((await http.get('/api/auth/me').set('X-Sandbox-Id', 'a')).status).toBe(429);
    // One address has one budget, whichever sandbox it names (test/hardening/rate-limit-shared.test.ts).
    expect((await http.get('/api/auth/me').set('X-Sandbox-Id', 'b')).status).toBe(429);

    await http.post('/__sandbox/scenarios').set('X-Sandbox-Id', 'a').send({ name: 'server.error' });
    expect((await http.get('/__sandbox/scenarios').set('X-Sandbox-Id', 'b')).body.scenarios).toEqual([]);

    await http.post('/__sandbox/snapshots').set('X-Sandbox-Id', 'a').send({ name: 's' });
    expect((await http.get('/__sandbox/snapshots').set('X-Sandbox-Id', 'b')).body.snapshots).toEqual([]);

    const journalB = (await http.get('/__sandbox/requests').set('X-Sandbox-Id', 'b')).body.requests;
    expect(journalB.every((r: { sandbox_id: string }) => r.sandbox_id === 'b')).toBe(true);
    expect(journalB.map((r: { path: string }) => r.path)).toEqual([
      '/__sandbox/snapshots',
      '/__sandbox/scenarios',
      '/api/auth/me',
    ]);
  });
});
