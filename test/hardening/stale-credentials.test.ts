import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { startServer } from '../../src/process/server.js';
import { checked } from '../helpers/checked-clients.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Issue 14, Access: "A token issued before a reset acts as whoever registers next." Ids of records
// made after the seed never repeat an id handed out earlier in the sandbox's life (after a reset,
// DELETE /__sandbox, a snapshot restore or a restart), so a token or API key whose user no longer
// exists is a 401; a seeded account's token stays valid across a reset (the same user comes back).

type Http = ReturnType<typeof supertest>;
const INVALID = 'Invalid or expired token';

/** Registers, logs in and makes an API key; the user's id, bearer token and key. */
async function newUser(http: Http, email: string, sandbox = 'default') {
  const sent = { email, password: 'password-1' };
  const reg = await http.post('/api/auth/register').set('X-Sandbox-Id', sandbox).send(sent);
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const login = await http.post('/api/auth/login').set('X-Sandbox-Id', sandbox).send(sent);
  const bearer = `Bearer ${login.body.token as string}`;
  const key = await http
    .post('/api/settings/api-keys')
    .set('X-Sandbox-Id', sandbox)
    .set('authorization', bearer);
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  return { id: login.body.user.id as string, bearer, key: `Bearer ${key.body.key as string}` };
}

const me = (http: Http, credential: string, sandbox = 'default') =>
  http.get('/api/auth/me').set('X-Sandbox-Id', sandbox).set('authorization', credential);

/** A user made before `lifeEnds` cannot act once it has ended and another user registered. */
async function expectStaleAfter(http: Http, lifeEnds: () => Promise<unknown>, sandbox = 'default') {
  const before = await newUser(http, 'before@example.com', sandbox);
  expect((await me(http, before.bearer, sandbox)).body.email).toBe('before@example.com');
  await lifeEnds();
  const after = await newUser(http, 'after@example.com', sandbox);
  expect(after.id).not.toBe(before.id);
  expectError(await me(http, before.bearer, sandbox), 401, INVALID);
  expectError(await me(http, before.key, sandbox), 401, INVALID);
  expect((await me(http, after.bearer, sandbox)).body.email).toBe('after@example.com');
}

describe('credentials of an earlier life of a sandbox', () => {
  let sb: TestSandbox;
  const fresh = async () => (sb = await makeSandbox());

  it('a reset: the old token and key are a 401, never the user registered after', async () => {
    await fresh();
    await expectStaleAfter(sb.http, () => sb.http.post('/__sandbox/reset').expect(200));
  });

  it('DELETE /__sandbox: a sandbox made again under the same id does not take the old tokens', async () => {
    await fresh();
    await expectStaleAfter(
      sb.http,
      () => sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'job-7').expect(200),
      'job-7',
    );
  });

  it('a snapshot restore: users made after the snapshot are gone, and so are their tokens', async () => {
    await fresh();
    await sb.http.post('/__sandbox/snapshots').send({ name: 'clean' }).expect(201);
    await expectStaleAfter(sb.http, () => sb.http.post('/__sandbox/snapshots/clean/restore').expect(200));
  });

  it('a snapshot taken once ids were handed out does not hand them out again when restored', async () => {
    await fresh();
    await newUser(sb.http, 'early@example.com');
    await sb.http.post('/__sandbox/snapshots').send({ name: 'mid' }).expect(201);
    await expectStaleAfter(sb.http, () => sb.http.post('/__sandbox/snapshots/mid/restore').expect(200));
  });

  it('a guest token of before a reset does not see the cart of a guest made after', async () => {
    await fresh();
    const listing = (await sb.http.get('/api/shop/listings?limit=1')).body.listings[0] as { id: string };
    const guest = async () => (await sb.http.post('/api/auth/guest').expect(201)).body.guestToken as string;
    const old = await guest();
    await sb.http.post('/__sandbox/reset').expect(200);
    const next = await guest();
    await sb.http
      .post('/api/shop/cart')
      .set('X-Guest-Token', next)
      .send({ listingId: listing?.id, quantity: 1 })
      .expect(200);
    expect((await sb.http.get('/api/shop/cart').set('X-Guest-Token', old)).body.items).toEqual([]);
  });

  it("a seeded account's token stays valid across a reset: the same seeded user comes back", async () => {
    await fresh();
    const bearer = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const before = (await me(sb.http, bearer)).body;
    await sb.http.post('/__sandbox/clock').send({ advance: '2h' }).expect(200);
    await sb.http.post('/__sandbox/reset').expect(200);
    expect((await me(sb.http, bearer)).body).toEqual(before);
    expect((await me(sb.http, `Bearer ${accounts.buyer.apiKey}`)).body).toEqual(before);
  });
});

describe('credentials across a restart of a file-backed sandbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stale-credentials-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ids go on from where they were: a reset before the restart does not make old tokens valid again', async () => {
    const config = makeConfig({
      dataFile: join(dir, 'db.json'),
      inMemory: false,
      listings: 60,
      port: 0,
      host: '127.0.0.1',
      jwtSecret: 'restart-secret-0123456789abcdef0123456789',
    });
    let running = await startServer(config);
    const kept = await newUser(checked(supertest(running.url)), 'kept@example.com');
    const gone = await newUser(checked(supertest(running.url)), 'gone@example.com');
    await checked(supertest(running.url)).post('/__sandbox/snapshots').send({ name: 'both' }).expect(201);
    await checked(supertest(running.url)).post('/__sandbox/reset').expect(200);
    const again = await newUser(checked(supertest(running.url)), 'kept@example.com');
    await running.close();
    running = await startServer(config);
    try {
      const http = checked(supertest(running.url));
      const after = await newUser(http, 'after@example.com');
      expect(new Set([kept.id, gone.id, again.id, after.id]).size).toBe(4);
      for (const old of [kept, gone]) {
        expectError(await me(http, old.bearer), 401, INVALID);
        expectError(await me(http, old.key), 401, INVALID);
      }
      expect((await me(http, again.bearer)).body.email).toBe('kept@example.com');
    } finally {
      await running.close();
    }
  });
});
