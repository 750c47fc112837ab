import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { startServer } from '../../src/process/server.js';
import { openDefaultWorld } from '../../src/world/open.js';
import { createWorldRegistry } from '../../src/world/registry.js';
import { sandboxFileName, sandboxIdOfFileName } from '../../src/world/sandbox-files.js';
import { expectError, makeSandbox } from '../helpers/sandbox.js';
import { checkedFetch } from '../helpers/checked-clients.js';

/** The files of a sandbox directory without the stores' change logs (`<file>.changes`, see src/store/change-log.ts). */
const databases = async (dir: string) => (await readdir(dir)).filter((name) => !name.endsWith('.changes'));

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-isolation-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('sandbox file names', () => {
  it('keep ids that differ only in case apart, and map back', () => {
    expect(sandboxFileName('job-a')).toBe('job-a.json');
    expect(sandboxFileName('Job-A')).toBe('+job-+a.json');
    for (const id of ['job-a', 'Job-A', 'X', '0_-', 'AbC'.repeat(21)]) {
      expect(sandboxIdOfFileName(sandboxFileName(id))).toBe(id);
    }
    for (const other of ['x.json.123.tmp', 'x.json.unreadable-1', 'Upper.json', '+.json', 'jwt-secret']) {
      expect(sandboxIdOfFileName(other)).toBeNull();
    }
  });
});

describe('file-backed sandboxes', () => {
  async function fileSandbox(wall: { now: number }) {
    const dir = await tempDir();
    const sb = await makeSandbox(
      { inMemory: false, dataFile: join(dir, 'db.json'), sandboxIdleMinutes: 30 },
      { wallClock: () => wall.now },
    );
    return { sb, dir, sandboxes: join(dir, 'sandboxes') };
  }
  const user = { email: 'kept@example.com', password: 'password-1' };

  it('keeps each sandbox in its own file; eviction keeps the file and the next use loads it back', async () => {
    const wall = { now: Date.parse('2026-11-22T10:00:00.000Z') };
    const { sb, sandboxes } = await fileSandbox(wall);
    const id = 'Job-A';
    expect((await sb.http.post('/api/auth/register').set('X-Sandbox-Id', id).send(user)).status).toBe(201);
    await sb.http
      .post('/__sandbox/clock')
      .set('X-Sandbox-Id', id)
      .send({ set: '2030-01-01T00:00:00.000Z', freeze: true });
    expect(await databases(sandboxes)).toEqual(['+job-+a.json']);

    const live = (await sb.http.get('/__sandbox/sandboxes')).body.sandboxes;
    expect(live[0]).toMatchObject({ id: 'default', store: 'file', bytes: expect.any(Number) });
    expect(live[1]).toMatchObject({ id, live: true, store: 'file', bytes: expect.any(Number) });

    wall.now += 30 * 60_000;
    expect(await sb.worlds.sweep()).toEqual([id]);
    expect(existsSync(join(sandboxes, '+job-+a.json'))).toBe(true);
    const stored = (await sb.http.get('/__sandbox/sandboxes')).body;
    expect(stored.live).toBe(0);
    expect(stored.sandboxes[1]).toMatchObject({ id, live: false, records: null, clock: null, requests: 0 });
    expect(stored.sandboxes[1].bytes).toBeGreaterThan(1000);

    expect((await sb.http.post('/api/auth/login').set('X-Sandbox-Id', id).send(user)).status).toBe(200);
    const clock = await sb.http.get('/__sandbox/clock').set('X-Sandbox-Id', id);
    expect(clock.body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    expect((await sb.http.post('/api/auth/login').send(user)).status).toBe(401);
  });

  it('deletes the file with the sandbox', async () => {
    const wall = { now: Date.parse('2026-11-22T10:00:00.000Z') };
    const { sb, sandboxes } = await fileSandbox(wall);
    await sb.http.post('/api/auth/register').set('X-Sandbox-Id', 'tmp').send(user);
    expect(await databases(sandboxes)).toEqual(['tmp.json']);
    expect((await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'tmp')).status).toBe(200);
    expect(await readdir(sandboxes)).toEqual([]);
    expect((await sb.http.get('/__sandbox/sandboxes')).body.sandboxes).toHaveLength(1);
    expect((await sb.http.post('/api/auth/login').set('X-Sandbox-Id', 'tmp').send(user)).status).toBe(401);
  });

  it('refuses a sandbox whose file cannot be read (503, files as they were) until it is deleted', async () => {
    const wall = { now: Date.parse('2026-11-22T10:00:00.000Z') };
    const { sb, sandboxes } = await fileSandbox(wall);
    await sb.http.get('/api/shop/categories').set('X-Sandbox-Id', 'other');
    await writeFile(join(sandboxes, 'broken.json'), '{not json');
    for (let i = 0; i < 2; i += 1) {
      const res = await sb.http.post('/api/auth/register').set('X-Sandbox-Id', 'broken').send(user);
      expectError(
        res,
        503,
        new RegExp(
          `^Sandbox "broken" cannot be loaded: Database file ${join(sandboxes, 'broken.json')} is damaged .*` +
            'Its files were left untouched: move them away to keep them, or delete the sandbox ' +
            '\\(DELETE /__sandbox with X-Sandbox-Id: broken\\); its next use then starts from the seed$',
        ),
      );
    }
    expect((await databases(sandboxes)).sort()).toEqual(['broken.json', 'other.json']);
    expect(await readFile(join(sandboxes, 'broken.json'), 'utf8')).toBe('{not json');
    expect((await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'broken')).status).toBe(200);
    expect(await databases(sandboxes)).toEqual(['other.json']);
    expect((await sb.http.post('/api/auth/register').set('X-Sandbox-Id', 'broken').send(user)).status).toBe(
      201,
    );
  });

  it('removes stored sandboxes on --reset', async () => {
    const dir = await tempDir();
    const config = makeConfig({ dataFile: join(dir, 'db.json'), inMemory: false });
    const first = await createWorldRegistry({ config, defaultWorld: (await openDefaultWorld(config)).world });
    await first.open('a');
    await first.open('b');
    expect((await databases(join(dir, 'sandboxes'))).sort()).toEqual(['a.json', 'b.json']);
    const again = makeConfig({ ...config, reset: true });
    const second = await createWorldRegistry({
      config: again,
      defaultWorld: (await openDefaultWorld(again)).world,
    });
    expect(await readdir(join(dir, 'sandboxes'))).toEqual([]);
    expect(second.liveIds()).toEqual([]);
  });
});

describe('the server', () => {
  it('serves isolated sandboxes over a real port and flushes them on close', async () => {
    const dir = await tempDir();
    const running = await startServer(
      makeConfig({ port: 0, host: '127.0.0.1', dataFile: join(dir, 'db.json'), maxSandboxes: 3 }),
    );
    try {
      const post = (id: string) =>
        checkedFetch(`${running.url}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sandbox-id': id },
          body: JSON.stringify({ email: 'same@example.com', password: 'password-1' }),
        });
      const statuses = await Promise.all(['s1', 's2', 's3'].map(async (id) => (await post(id)).status));
      expect(statuses).toEqual([201, 201, 201]);
      const full = await post('s4');
      expect(full.status).toBe(503);
      expect(Object.keys(await full.json())).toEqual(['error']);
      const list = await (await checkedFetch(`${running.url}/__sandbox/sandboxes`)).json();
      expect(list.sandboxes.map((s: { id: string }) => s.id)).toEqual(['default', 's1', 's2', 's3']);
    } finally {
      await running.close();
    }
    expect((await databases(join(dir, 'sandboxes'))).sort()).toEqual(['s1.json', 's2.json', 's3.json']);
  });
});
